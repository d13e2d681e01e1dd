/**
 * X.509 v3 extensions decoded into the fields Go's x509 package fills from them (names,
 * key usages, basic constraints, key ids, AIA URLs, CRL distribution points, policies).
 */
import { normalizeNumber } from "../../value/number.js";
import { fromJSON, RegoObject, type Value } from "../../value/value.js";
import {
  bitAt,
  children,
  type DerNode,
  integerValue,
  oidComponents,
  oidString,
  readNode,
} from "./der.js";

/** Bytes as Go's JSON encodes a []byte: base64. */
export const b64 = (b: Buffer) => b.toString("base64");
/** A list as Go's JSON encodes a slice: null when empty (nil). */
export const listOrNull = (xs: Value[]) => (xs.length === 0 ? null : xs);

const extKeyUsages: Record<string, number> = {
  "2.5.29.37.0": 0,
  "1.3.6.1.5.5.7.3.1": 1,
  "1.3.6.1.5.5.7.3.2": 2,
  "1.3.6.1.5.5.7.3.3": 3,
  "1.3.6.1.5.5.7.3.4": 4,
  "1.3.6.1.5.5.7.3.5": 5,
  "1.3.6.1.5.5.7.3.6": 6,
  "1.3.6.1.5.5.7.3.7": 7,
  "1.3.6.1.5.5.7.3.8": 8,
  "1.3.6.1.5.5.7.3.9": 9,
  "1.3.6.1.4.1.311.10.3.3": 10,
  "2.16.840.1.113730.4.1": 11,
  "1.3.6.1.4.1.311.2.1.22": 12,
  "1.3.6.1.4.1.311.61.1.1": 13,
};

interface SubjectAltNames {
  dns: Value[];
  email: Value[];
  ip: Value[];
  uris: string[];
}

/** An IP address as Go's net.IP prints it (IPv4-mapped as IPv4, IPv6 per RFC 5952). */
export function ipString(bytes: Buffer): string {
  const mapped =
    bytes.length === 16 &&
    bytes.subarray(0, 10).every((b) => b === 0) &&
    bytes[10] === 0xff &&
    bytes[11] === 0xff;
  if (bytes.length === 4 || mapped) return [...bytes.subarray(bytes.length - 4)].join(".");
  if (bytes.length !== 16) return `?${bytes.toString("hex")}`;
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(bytes.readUInt16BE(i));
  let bestStart = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j === i ? i + 1 : j;
  }
  const hex = (gs: number[]) => gs.map((g) => g.toString(16)).join(":");
  if (bestStart < 0) return hex(groups);
  return `${hex(groups.slice(0, bestStart))}::${hex(groups.slice(bestStart + bestLen))}`;
}

function subjectAltNames(value: Buffer, out: SubjectAltNames): void {
  for (const gn of children(readNode(value))) {
    if (gn.cls !== 2) continue;
    const text = gn.content.toString("latin1");
    if (gn.tag === 2) out.dns.push(text);
    else if (gn.tag === 1) out.email.push(text);
    else if (gn.tag === 6) out.uris.push(text);
    else if (gn.tag === 7) out.ip.push(ipString(gn.content));
  }
}

/** Go's url.URL JSON for a URI SAN. */
function uriValue(text: string): Value {
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/.exec(
    text,
  );
  return fromJSON({
    Scheme: m?.[1] ?? "",
    Opaque: "",
    User: null,
    Host: m?.[2] ?? "",
    Path: m?.[3] ?? text,
    RawPath: "",
    OmitHost: false,
    ForceQuery: false,
    RawQuery: m?.[4] ?? "",
    Fragment: m?.[5] ?? "",
    RawFragment: "",
  });
}

/** Everything the extension handlers collect before it is written out. */
interface Collected {
  san: SubjectAltNames;
  keyUsage: number;
  extKeyUsage: Value[];
  ocsp: Value[];
  issuers: Value[];
  crl: Value[];
  policies: Value[];
}

/** URIs among GeneralNames ([6] IA5String). */
function generalNameUris(nodes: DerNode[]): string[] {
  return nodes.filter((n) => n.cls === 2 && n.tag === 6).map((n) => n.content.toString("latin1"));
}

type Handler = (value: Buffer, c: Collected, out: RegoObject) => void;

const handlers: Record<string, Handler> = {
  "2.5.29.17": (value, c) => subjectAltNames(value, c.san),
  "2.5.29.15": (value, c) => {
    const bits = readNode(value);
    for (let i = 0; i < 9; i++) if (bitAt(bits, i)) c.keyUsage |= 1 << i;
  },
  "2.5.29.37": (value, c) => {
    for (const u of children(readNode(value))) {
      const known = extKeyUsages[oidString(u)];
      if (known !== undefined) c.extKeyUsage.push(known);
    }
  },
  "2.5.29.19": (value, _c, out) => {
    const fields = children(readNode(value));
    const pathLen = fields.find((f) => f.tag === 2);
    out.set("BasicConstraintsValid", true);
    out.set("IsCA", fields[0]?.tag === 1 && fields[0].content[0] !== 0);
    out.set("MaxPathLen", pathLen ? normalizeNumber(integerValue(pathLen)) : -1);
    out.set("MaxPathLenZero", pathLen !== undefined && integerValue(pathLen) === 0n);
  },
  "2.5.29.14": (value, _c, out) => out.set("SubjectKeyId", b64(readNode(value).content)),
  "2.5.29.35": (value, _c, out) => {
    const keyId = children(readNode(value)).find((f) => f.cls === 2 && f.tag === 0);
    if (keyId) out.set("AuthorityKeyId", b64(keyId.content));
  },
  // Authority information access: OCSP responders and issuing certificate URLs.
  "1.3.6.1.5.5.7.1.1": (value, c) => {
    for (const desc of children(readNode(value))) {
      const [method, location] = children(desc) as [DerNode, DerNode];
      const uris = generalNameUris([location]);
      if (oidString(method) === "1.3.6.1.5.5.7.48.1") c.ocsp.push(...uris);
      else if (oidString(method) === "1.3.6.1.5.5.7.48.2") c.issuers.push(...uris);
    }
  },
  // CRL distribution points: the full-name URIs of each point.
  "2.5.29.31": (value, c) => {
    for (const point of children(readNode(value))) {
      const name = children(point).find((n) => n.cls === 2 && n.tag === 0);
      const full = name ? children(name).find((n) => n.cls === 2 && n.tag === 0) : undefined;
      if (full) c.crl.push(...generalNameUris(children(full)));
    }
  },
  "2.5.29.32": (value, c) => {
    for (const info of children(readNode(value)))
      c.policies.push(oidComponents(children(info)[0] as DerNode));
  },
};

/** Sets the extension-derived fields on `out`; returns the URI SANs as written. */
export function extensionFields(extensions: DerNode[], out: RegoObject): string[] {
  const c: Collected = {
    san: { dns: [], email: [], ip: [], uris: [] },
    keyUsage: 0,
    extKeyUsage: [],
    ocsp: [],
    issuers: [],
    crl: [],
    policies: [],
  };
  const exts: Value[] = [];
  for (const ext of extensions) {
    const parts = children(ext);
    const id = parts[0] as DerNode;
    const critical = parts.length === 3 && (parts[1] as DerNode).content[0] !== 0;
    const value = (parts[parts.length - 1] as DerNode).content;
    exts.push(
      RegoObject.fromEntries([
        ["Id", oidComponents(id)],
        ["Critical", critical],
        ["Value", b64(value)],
      ]),
    );
    handlers[oidString(id)]?.(value, c, out);
  }
  out.set("Extensions", listOrNull(exts));
  out.set("KeyUsage", c.keyUsage);
  out.set("ExtKeyUsage", listOrNull(c.extKeyUsage));
  out.set("DNSNames", listOrNull(c.san.dns));
  out.set("EmailAddresses", listOrNull(c.san.email));
  out.set("IPAddresses", listOrNull(c.san.ip));
  out.set("URIs", listOrNull(c.san.uris.map(uriValue)));
  out.set("OCSPServer", listOrNull(c.ocsp));
  out.set("IssuingCertificateURL", listOrNull(c.issuers));
  out.set("CRLDistributionPoints", listOrNull(c.crl));
  out.set("PolicyIdentifiers", listOrNull(c.policies));
  return c.san.uris;
}
