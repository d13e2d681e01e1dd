/**
 * Compact JWS tokens as OPA's JWS library signs and verifies them for bundle signatures:
 * the header it writes, the key it requires for each algorithm (RS*, PS*, ES*, HS* at
 * 256/384/512 bits; no EdDSA) and its error texts when a key or a signature is wrong.
 */
import type { KeyObject } from "node:crypto";
import { jsonString } from "@quintet/gostd/json";
import {
  type JwsAlgorithm,
  type JwsFamily,
  type JwsKey,
  jwsAlgorithm,
  signInput,
  verifyInput,
} from "./algorithms.js";

/** The signing algorithms of compact tokens (OPA's bundle `keys` configuration lists them). */
export const SIGNING_ALGORITHMS: readonly string[] = ["RS", "PS", "ES", "HS"].flatMap((f) =>
  ["256", "384", "512"].map((bits) => `${f}${bits}`),
);

/** The algorithm called `alg`, refused with OPA's message unless compact tokens take it. */
export function compactAlgorithm(alg: string): JwsAlgorithm {
  const a = jwsAlgorithm(alg);
  if (!a || !SIGNING_ALGORITHMS.includes(alg))
    throw new Error(`unsupported signature algorithm: ${alg}`);
  return a;
}

/** How Go prints a key's type in these messages: `*rsa.PublicKey`, `*ecdsa.PrivateKey`. */
export function goKeyType(key: KeyObject, visibility: "Public" | "Private"): string {
  const type = key.asymmetricKeyType === "ec" ? "ecdsa" : key.asymmetricKeyType;
  return `*${type}.${visibility}Key`;
}

function base64url(data: Buffer | string): string {
  return Buffer.from(data).toString("base64url");
}

/** The asymmetric key of `key` if it is the one `family` needs (plain RSA for RS and PS). */
function requireKeyType(key: JwsKey, family: JwsFamily, visibility: "Public" | "Private") {
  const wanted = family === "ES" ? "ec" : "rsa";
  const required = `*${family === "ES" ? "ecdsa" : "rsa"}.${visibility}Key`;
  if (Buffer.isBuffer(key)) throw new Error(`invalid key type []uint8. ${required} is required`);
  if (key.asymmetricKeyType !== wanted)
    throw new Error(`invalid key type ${goKeyType(key, visibility)}. ${required} is required`);
  return key;
}

function signature(input: Buffer, alg: string, key: JwsKey): Buffer {
  const a = compactAlgorithm(alg);
  if (a.family === "HS") {
    if (!Buffer.isBuffer(key)) throw new Error("hmac sign: invalid key type");
    return signInput(a, key, input);
  }
  return signInput(a, requireKeyType(key, a.family, "Private"), input);
}

/**
 * A compact JWS over `payload` with the header `{"alg":…}` plus `"kid"` when given, the
 * header OPA writes.
 */
export function signCompact(payload: string, alg: string, key: JwsKey, kid?: string): string {
  compactAlgorithm(alg);
  const header = `{"alg":${jsonString(alg)}${kid ? `,"kid":${jsonString(kid)}` : ""}}`;
  const input = `${base64url(header)}.${base64url(payload)}`;
  let sig: Buffer;
  try {
    sig = signature(Buffer.from(input), alg, key);
  } catch (e) {
    throw new Error(`failed to sign Payload: ${(e as Error).message}`);
  }
  return `${input}.${base64url(sig)}`;
}

/** Go's base64.RawURLEncoding decoding, with its error text for a bad byte. */
export function decodeRawUrl(part: string): Buffer {
  const bad = /[^A-Za-z0-9_-]/.exec(part);
  if (bad) throw new Error(`illegal base64 data at input byte ${bad.index}`);
  if (part.length % 4 === 1) throw new Error(`illegal base64 data at input byte ${part.length}`);
  return Buffer.from(part, "base64url");
}

function check(input: Buffer, sig: Buffer, alg: string, key: JwsKey): void {
  const a = compactAlgorithm(alg);
  if (a.family === "HS") {
    if (!Buffer.isBuffer(key)) throw new Error("failed to generated signature: invalid key type");
    // Go wraps a nil error here, so OPA's text ends in %!w(<nil>).
    if (!verifyInput(a, key, input, sig))
      throw new Error("failed to match hmac signature: %!w(<nil>)");
    return;
  }
  const ok = verifyInput(a, requireKeyType(key, a.family, "Public"), input, sig);
  if (ok) return;
  if (a.family === "ES") throw new Error("failed to verify signature using ecdsa");
  throw new Error("crypto/rsa: verification error");
}

/**
 * Verifies a compact JWS with `alg` and `key` (the algorithm configured for the key, as OPA
 * does, not the token's header); throws OPA's message when it does not verify.
 */
export function verifyCompact(token: string, alg: string, key: JwsKey): void {
  compactAlgorithm(alg);
  const trimmed = token.trim();
  if (trimmed === "") throw new Error("attempt to verify empty buffer");
  const parts = trimmed.split(".");
  if (parts.length < 3)
    throw new Error(
      "failed extract from compact serialization format: Failed to split compact serialization",
    );
  let sig: Buffer;
  try {
    sig = decodeRawUrl(parts[2] as string);
  } catch (e) {
    throw new Error(`failed to decode signature: ${(e as Error).message}`);
  }
  try {
    check(Buffer.from(`${parts[0]}.${parts[1]}`), sig, alg, key);
  } catch (e) {
    throw new Error(`failed to verify message: ${(e as Error).message}`);
  }
}
