/**
 * Keys for compact JWS signing and verifying read from PEM text (or the HMAC secret itself),
 * as OPA's bundle signing reads them, with the error texts of Go's x509 package.
 */
import { createPrivateKey, createPublicKey, type KeyObject } from "node:crypto";
import type { JwsKey } from "./algorithms.js";
import { compactAlgorithm, goKeyType } from "./compact.js";

/** The first PEM block of `text`: its type and DER bytes, as Go's pem.Decode finds it. */
function pemBlock(text: string): { type: string; der: Buffer } | undefined {
  const m = /-----BEGIN ([^-\r\n]+)-----\r?\n?([\s\S]*?)-----END \1-----/.exec(text);
  if (!m) return undefined;
  return { type: m[1] as string, der: Buffer.from((m[2] as string).replace(/\s+/g, ""), "base64") };
}

/** The private key (or HMAC secret) to sign with under `alg`, from its PEM text. */
export function signingKey(keyText: string, alg: string): JwsKey {
  const a = compactAlgorithm(alg);
  if (a.family === "HS") return Buffer.from(keyText, "utf8");
  const block = pemBlock(keyText);
  if (!block) throw new Error("failed to parse PEM block containing the key");
  const formats =
    a.family === "ES"
      ? [{ type: "sec1", label: "x509: failed to parse EC private key" }]
      : [{ type: "pkcs1", label: "x509: failed to parse private key" }];
  const errors: string[] = [];
  for (const f of [...formats, { type: "pkcs8", label: "x509: failed to parse private key" }]) {
    try {
      return createPrivateKey({
        key: block.der,
        format: "der",
        type: f.type as "pkcs1" | "pkcs8" | "sec1",
      });
    } catch {
      errors.push(f.label);
    }
  }
  throw new Error(`error parsing private key (${errors[0]}), (${errors[1]})`);
}

/** The public key (or HMAC secret) to verify with under `alg`, from its PEM text. */
export function verificationKey(keyText: string, alg: string): JwsKey {
  const a = compactAlgorithm(alg);
  if (a.family === "HS") return Buffer.from(keyText, "utf8");
  const block = pemBlock(keyText);
  if (!block) throw new Error("failed to parse PEM block containing the key");
  let key: KeyObject;
  try {
    key = createPublicKey({ key: block.der, format: "der", type: "spki" });
  } catch {
    throw new Error(
      block.type === "RSA PUBLIC KEY"
        ? "x509: failed to parse public key (use ParsePKCS1PublicKey instead for this key format)"
        : "x509: failed to parse public key",
    );
  }
  if (key.asymmetricKeyType !== "rsa" && key.asymmetricKeyType !== "ec")
    throw new Error(`invalid key type ${goKeyType(key, "Public")}`);
  return key;
}
