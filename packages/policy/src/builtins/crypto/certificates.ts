/**
 * Reading certificates from OPA's accepted inputs (PEM, base64 of PEM, base64 of DER) and
 * verifying a chain (trust anchor first, leaf last) the way Go's x509.Verify does for OPA.
 */
import { X509Certificate } from "node:crypto";
import { BuiltinError } from "../../errors.js";
import { DerError, splitConcatenated } from "./der.js";
import { goBase64Decode, pemDecode } from "./go-encoding.js";

/** DER bytes of every certificate in the PEM blocks of `text`. */
function derFromPem(text: string): Buffer[] {
  const out: Buffer[] = [];
  let rest = text;
  while (rest.length > 0) {
    const { block, rest: after } = pemDecode(rest);
    if (!block) break;
    if (block.type !== "CERTIFICATE") {
      throw new BuiltinError(`PEM block type is '${block.type}', expected CERTIFICATE`);
    }
    out.push(...splitDer(block.bytes));
    rest = after;
  }
  return out;
}

function splitDer(der: Buffer): Buffer[] {
  try {
    return splitConcatenated(der);
  } catch (e) {
    if (e instanceof DerError) throw new BuiltinError("x509: malformed certificate");
    throw e;
  }
}

function decodeBase64(text: string): Buffer {
  try {
    return goBase64Decode(text);
  } catch (e) {
    throw new BuiltinError((e as Error).message);
  }
}

/** DER certificates from a PEM string, or base64 of PEM or DER. */
export function certificatesFromString(text: string): Buffer[] {
  if (text.startsWith("-----BEGIN")) return derFromPem(text);
  const bytes = decodeBase64(text);
  if (bytes.subarray(0, 10).toString("latin1") === "-----BEGIN")
    return derFromPem(bytes.toString("latin1"));
  return splitDer(bytes);
}

/** Parses DER for verification; malformed input gets Go's message. */
export function x509(der: Buffer): X509Certificate {
  try {
    return new X509Certificate(der);
  } catch {
    throw new BuiltinError("x509: malformed certificate");
  }
}

export interface VerifyOptions {
  /** Milliseconds since the epoch at which the chain must be valid. */
  now: number;
  dnsName?: string;
  /** Go ExtKeyUsage numbers any of which the chain must allow; 0 is "any". */
  keyUsages: number[];
  /** ExtKeyUsage numbers of each certificate, by DER, for the usage check. */
  extKeyUsagesOf: (der: Buffer) => number[] | null;
}

function validAt(cert: X509Certificate, now: number): boolean {
  return Date.parse(cert.validFrom) <= now && now <= Date.parse(cert.validTo);
}

function usageAllowed(ekus: number[] | null, wanted: number[]): boolean {
  if (!ekus || ekus.includes(0) || wanted.includes(0)) return true;
  return wanted.some((u) => ekus.includes(u));
}

function issuedBy(child: X509Certificate, parent: X509Certificate): boolean {
  try {
    return parent.ca && child.checkIssued(parent) && child.verify(parent.publicKey);
  } catch {
    return false;
  }
}

/**
 * The chain (leaf first) from the last certificate to the first one (the only trust anchor),
 * through the others as intermediates, or undefined when none verifies.
 */
export function verifyChain(ders: Buffer[], opts: VerifyOptions): Buffer[] | undefined {
  if (ders.length < 2) return undefined;
  const certs = ders.map(x509);
  const leafIndex = certs.length - 1;
  const leaf = certs[leafIndex] as X509Certificate;
  const rootIndex = 0;
  if (opts.dnsName !== undefined && leaf.checkHost(opts.dnsName) === undefined) return undefined;
  const search = (index: number, path: number[]): number[] | undefined => {
    const cert = certs[index] as X509Certificate;
    if (
      !validAt(cert, opts.now) ||
      !usageAllowed(opts.extKeyUsagesOf(ders[index] as Buffer), opts.keyUsages)
    ) {
      return undefined;
    }
    if (index === rootIndex) return path;
    for (let next = 0; next < leafIndex; next++) {
      if (path.includes(next) || !issuedBy(cert, certs[next] as X509Certificate)) continue;
      const found = search(next, [...path, next]);
      if (found) return found;
    }
    return undefined;
  };
  return search(leafIndex, [leafIndex])?.map((i) => ders[i] as Buffer);
}
