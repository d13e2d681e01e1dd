/**
 * X.509 certificates and certificate requests as Rego objects in the shape of Go's
 * x509.Certificate / x509.CertificateRequest JSON (which OPA returns): byte fields as
 * base64, absent lists as null, names with Go's pkix.Name fields, plus OPA's URIStrings.
 */
import { createPublicKey } from "node:crypto";
import { normalizeNumber } from "../../value/number.js";
import { RegoObject, type Value } from "../../value/value.js";
import {
  children,
  type DerNode,
  integerValue,
  oidComponents,
  oidString,
  readNode,
  stringValue,
  timeValue,
} from "./der.js";
import { b64, extensionFields, listOrNull } from "./x509-extensions.js";

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

/**
 * The fields a certificate and a request share: the signature (a BIT STRING, so past its
 * unused-bits byte), both algorithm numbers (Go's enums, 0 when unknown) and the public key.
 */
function setSignatureAndKey(out: RegoObject, sig: DerNode, sigAlg: DerNode, spki: DerNode): void {
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
  setSignatureAndKey(out, sig, sigAlg, spki);
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
  setSignatureAndKey(out, sig, sigAlg, spki);
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
