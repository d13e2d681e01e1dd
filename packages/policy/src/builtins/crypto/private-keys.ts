/**
 * Private keys from PEM (PKCS#1, PKCS#8, SEC 1) for crypto.x509.parse_rsa_private_key,
 * crypto.parse_private_keys and crypto.x509.parse_keypair.
 */
import { createPrivateKey, createPublicKey, type KeyObject } from "node:crypto";
import { BuiltinError } from "../../errors.js";
import { normalizeNumber } from "../../value/number.js";
import { fromJSON, RegoObject, type Value } from "../../value/value.js";
import { goBase64Decode, pemDecode } from "./go-encoding.js";

const keyTypes: Record<string, "pkcs1" | "pkcs8" | "sec1"> = {
  "RSA PRIVATE KEY": "pkcs1",
  "PRIVATE KEY": "pkcs8",
  "EC PRIVATE KEY": "sec1",
};

/** PEM text, base64-decoding it first unless it already starts like PEM. */
export function pemText(input: string): string {
  if (input.startsWith("-----BEGIN")) return input;
  try {
    return goBase64Decode(input).toString("latin1");
  } catch (e) {
    throw new BuiltinError((e as Error).message);
  }
}

/** Every private key in the PEM blocks of `text`, in order. */
export function privateKeysFromPem(text: string): KeyObject[] {
  const keys: KeyObject[] = [];
  let rest = text;
  for (;;) {
    const { block, rest: after } = pemDecode(rest);
    if (!block) return keys;
    const type = keyTypes[block.type];
    if (type) {
      try {
        keys.push(createPrivateKey({ key: block.bytes, format: "der", type }));
      } catch {
        throw new BuiltinError(`x509: failed to parse private key (${block.type})`);
      }
    }
    rest = after;
  }
}

/** The key as a JWK object (base64url members). */
export function jwkValue(key: KeyObject): Value {
  return fromJSON(key.export({ format: "jwk" }));
}

const big = (b64url: unknown) =>
  normalizeNumber(
    BigInt(`0x${Buffer.from(String(b64url ?? ""), "base64url").toString("hex") || "0"}`),
  );

/** The private key as Go's crypto key structs marshal to JSON (RSA and ECDSA; others as bytes). */
export function goPrivateKeyValue(key: KeyObject): Value {
  const jwk = key.export({ format: "jwk" });
  if (jwk.kty === "RSA") {
    return RegoObject.fromEntries([
      ["N", big(jwk.n)],
      ["E", big(jwk.e)],
      ["D", big(jwk.d)],
      ["Primes", [big(jwk.p), big(jwk.q)]],
      [
        "Precomputed",
        RegoObject.fromEntries([
          ["Dp", big(jwk.dp)],
          ["Dq", big(jwk.dq)],
          ["Qinv", big(jwk.qi)],
          ["CRTValues", []],
        ]),
      ],
    ]);
  }
  if (jwk.kty === "EC") {
    return RegoObject.fromEntries([
      // Go's curve values have no exported fields, so they marshal as {}.
      ["Curve", new RegoObject()],
      ["X", big(jwk.x)],
      ["Y", big(jwk.y)],
      ["D", big(jwk.d)],
    ]);
  }
  return Buffer.concat([
    Buffer.from(String(jwk.d), "base64url"),
    Buffer.from(String(jwk.x), "base64url"),
  ]).toString("base64");
}

/** True when the private key belongs to the certificate's public key (SPKI DER). */
export function keyMatchesCertificate(key: KeyObject, certSpki: Buffer): boolean {
  const pub = createPublicKey(key).export({ format: "der", type: "spki" });
  return Buffer.compare(pub, certSpki) === 0;
}
