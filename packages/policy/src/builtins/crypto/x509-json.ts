/**
 * X.509 certificates and certificate requests as Rego objects in the shape of Go's
 * x509.Certificate / x509.CertificateRequest JSON (which OPA returns): byte fields as
 * base64, absent lists as null, names with Go's pkix.Name fields, plus OPA's URIStrings.
 */
import { createPublicKey } from "node:crypto";
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
  stringValue,
  timeValue,
} from "./der.js";

const b64 = (b: Buffer) => b.toString("base64");
const listOrNull = (xs: Value[]) => (xs.length === 0 ? null : xs);

const nameFields: Record<string, [string, boolean]> = {
  "2.5.4.6": ["Country", true],
  "2.5.4.10": ["Organization", true],
  "2.5.4.11": ["OrganizationalUnit", true],
  "2.5.4.7": ["Locality", true],
  "2.5.4.8": ["Province", true],
  "2.5.4.9": ["StreetAddress", true],
  "2.5.4.17": ["PostalCode", true],
  "2.5.4.5": ["SerialNumber", false],
  "2.5.4.3": ["CommonName", false],
};

/** A Name (RDN sequence) as Go's pkix.Name JSON. */
function nameValue(node: DerNode): RegoObject {
  const lists: Record<string, Value[]> = {};
  const singles: Record<string, string> = { SerialNumber: "", CommonName: "" };
  const names: Value[] = [];
  for (const rdn of children(node)) {
    for (const atv of children(rdn)) {
      const [oid, value] = children(atv) as [DerNode, DerNode];
      const text = stringValue(value);
      names.push(
        RegoObject.fromEntries([
          ["Type", oidComponents(oid)],
          ["Value", text],
        ]),
      );
      const field = nameFields[oidString(oid)];
      if (!field) continue;
      if (field[1]) lists[field[0]] = [...(lists[field[0]] ?? []), text];
      else singles[field[0]] = text;
    }
  }
  const out = new RegoObject();
  for (const [, [field, isList]] of Object.entries(nameFields)) {
    out.set(field, isList ? (lists[field] ?? null) : (singles[field] as string));
  }
  out.set("Names", listOrNull(names));
  out.set("ExtraNames", null);
  return out;
}

const signatureAlgorithms: Record<string, number> = {
  "1.2.840.113549.1.1.2": 1,
  "1.2.840.113549.1.1.4": 2,
  "1.2.840.113549.1.1.5": 3,
  "1.2.840.113549.1.1.11": 4,
  "1.2.840.113549.1.1.12": 5,
  "1.2.840.113549.1.1.13": 6,
  "1.2.840.10040.4.3": 7,
  "2.16.840.1.101.3.4.3.2": 8,
  "1.2.840.10045.4.1": 9,
  "1.2.840.10045.4.3.2": 10,
  "1.2.840.10045.4.3.3": 11,
  "1.2.840.10045.4.3.4": 12,
  "1.2.840.113549.1.1.10": 13,
  "1.3.101.112": 16,
};

const publicKeyAlgorithms: Record<string, number> = {
  "1.2.840.113549.1.1.1": 1,
  "1.2.840.10040.4.1": 2,
  "1.2.840.10045.2.1": 3,
  "1.3.101.112": 4,
};

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

const bigFromB64url = (s: unknown) =>
  normalizeNumber(BigInt(`0x${Buffer.from(String(s), "base64url").toString("hex") || "0"}`));

/** The public key as Go marshals it (RSA: N and E; ECDSA: X and Y; Ed25519: bytes). */
function publicKeyValue(spki: Buffer): Value {
  try {
    const jwk = createPublicKey({ key: spki, format: "der", type: "spki" }).export({
      format: "jwk",
    });
    if (jwk.kty === "RSA")
      return RegoObject.fromEntries([
        ["N", bigFromB64url(jwk.n)],
        ["E", bigFromB64url(jwk.e)],
      ]);
    if (jwk.kty === "EC") {
      return RegoObject.fromEntries([
        // Go's curve values have no exported fields, so they marshal as {}.
        ["Curve", new RegoObject()],
        ["X", bigFromB64url(jwk.x)],
        ["Y", bigFromB64url(jwk.y)],
      ]);
    }
    return b64(Buffer.from(String(jwk.x), "base64url"));
  } catch {
    return null;
  }
}

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

/** Extension-derived fields of a certificate; returns the URI SANs as written. */
function extensionFields(extensions: DerNode[], out: RegoObject): string[] {
  const san: SubjectAltNames = { dns: [], email: [], ip: [], uris: [] };
  const exts: Value[] = [];
  let keyUsage = 0;
  const extKeyUsage: Value[] = [];
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
    const oid = oidString(id);
    if (oid === "2.5.29.17") subjectAltNames(value, san);
    else if (oid === "2.5.29.15") {
      const bits = readNode(value);
      for (let i = 0; i < 9; i++) if (bitAt(bits, i)) keyUsage |= 1 << i;
    } else if (oid === "2.5.29.37") {
      for (const u of children(readNode(value))) {
        const known = extKeyUsages[oidString(u)];
        if (known !== undefined) extKeyUsage.push(known);
      }
    } else if (oid === "2.5.29.19") {
      const fields = children(readNode(value));
      const isCA = fields[0]?.tag === 1 && fields[0].content[0] !== 0;
      const pathLen = fields.find((f) => f.tag === 2);
      out.set("BasicConstraintsValid", true);
      out.set("IsCA", isCA);
      out.set("MaxPathLen", pathLen ? normalizeNumber(integerValue(pathLen)) : -1);
      out.set("MaxPathLenZero", pathLen !== undefined && integerValue(pathLen) === 0n);
    } else if (oid === "2.5.29.14") out.set("SubjectKeyId", b64(readNode(value).content));
    else if (oid === "2.5.29.35") {
      const keyId = children(readNode(value)).find((f) => f.cls === 2 && f.tag === 0);
      if (keyId) out.set("AuthorityKeyId", b64(keyId.content));
    }
  }
  out.set("Extensions", listOrNull(exts));
  out.set("KeyUsage", keyUsage);
  out.set("ExtKeyUsage", listOrNull(extKeyUsage));
  out.set("DNSNames", listOrNull(san.dns));
  out.set("EmailAddresses", listOrNull(san.email));
  out.set("IPAddresses", listOrNull(san.ip));
  out.set("URIs", listOrNull(san.uris.map(uriValue)));
  return san.uris;
}

/**
 * One DER certificate as Go marshals x509.Certificate; `withUriStrings` adds the URIStrings
 * field that OPA's parse_certificates and parse_and_verify_certificates include.
 */
export function certificateValue(der: Buffer, withUriStrings = true): RegoObject {
  const cert = readNode(der);
  const [tbs, sigAlg, sig] = children(cert) as [DerNode, DerNode, DerNode];
  let fields = children(tbs);
  let version = 1;
  if (fields[0]?.cls === 2 && fields[0].tag === 0) {
    version = Number(integerValue(children(fields[0])[0] as DerNode)) + 1;
    fields = fields.slice(1);
  }
  const [serial, , issuer, validity, subject, spki] = fields as DerNode[];
  if (!serial || !issuer || !validity || !subject || !spki)
    throw new Error("x509: malformed tbs certificate");
  const [notBefore, notAfter] = children(validity) as [DerNode, DerNode];
  const out = new RegoObject();
  out.set("Raw", b64(cert.raw));
  out.set("RawTBSCertificate", b64(tbs.raw));
  out.set("RawSubjectPublicKeyInfo", b64(spki.raw));
  out.set("RawSubject", b64(subject.raw));
  out.set("RawIssuer", b64(issuer.raw));
  out.set("Signature", b64(sig.content.subarray(1)));
  out.set(
    "SignatureAlgorithm",
    signatureAlgorithms[oidString(children(sigAlg)[0] as DerNode)] ?? 0,
  );
  out.set(
    "PublicKeyAlgorithm",
    publicKeyAlgorithms[oidString(children(children(spki)[0] as DerNode)[0] as DerNode)] ?? 0,
  );
  out.set("PublicKey", publicKeyValue(spki.raw));
  out.set("Version", version);
  out.set("SerialNumber", normalizeNumber(integerValue(serial)));
  out.set("Issuer", nameValue(issuer));
  out.set("Subject", nameValue(subject));
  out.set("NotBefore", timeValue(notBefore));
  out.set("NotAfter", timeValue(notAfter));
  out.set("BasicConstraintsValid", false);
  out.set("IsCA", false);
  out.set("MaxPathLen", 0);
  out.set("MaxPathLenZero", false);
  out.set("SubjectKeyId", null);
  out.set("AuthorityKeyId", null);
  const extField = fields.find((f) => f.cls === 2 && f.tag === 3);
  const uris = extensionFields(extField ? children(children(extField)[0] as DerNode) : [], out);
  if (withUriStrings) out.set("URIStrings", listOrNull(uris));
  return out;
}

/** A DER PKCS#10 request as OPA's crypto.x509.parse_certificate_request returns it. */
export function certificateRequestValue(der: Buffer): RegoObject {
  const csr = readNode(der);
  const [info, sigAlg, sig] = children(csr) as [DerNode, DerNode, DerNode];
  const [version, subject, spki, attributes] = children(info) as DerNode[];
  if (!version || !subject || !spki || !sigAlg || !sig)
    throw new Error("asn1: structure error: malformed request");
  const out = new RegoObject();
  out.set("Raw", b64(csr.raw));
  out.set("RawTBSCertificateRequest", b64(info.raw));
  out.set("RawSubjectPublicKeyInfo", b64(spki.raw));
  out.set("RawSubject", b64(subject.raw));
  out.set("Version", normalizeNumber(integerValue(version)));
  out.set("Signature", b64(sig.content.subarray(1)));
  out.set(
    "SignatureAlgorithm",
    signatureAlgorithms[oidString(children(sigAlg)[0] as DerNode)] ?? 0,
  );
  out.set(
    "PublicKeyAlgorithm",
    publicKeyAlgorithms[oidString(children(children(spki)[0] as DerNode)[0] as DerNode)] ?? 0,
  );
  out.set("PublicKey", publicKeyValue(spki.raw));
  out.set("Subject", nameValue(subject));
  const requested: DerNode[] = [];
  for (const attr of attributes ? children(attributes) : []) {
    const [oid, values] = children(attr) as [DerNode, DerNode];
    if (oidString(oid) === "1.2.840.113549.1.9.14")
      requested.push(...children(children(values)[0] as DerNode));
  }
  extensionFields(requested, out);
  for (const k of ["KeyUsage", "ExtKeyUsage"]) out.delete(k);
  return out;
}
