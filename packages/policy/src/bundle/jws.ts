/**
 * Compact JWS tokens for bundle signatures: the algorithms OPA signs and verifies bundles
 * with (RS*, PS*, ES*, HS* at 256/384/512 bits), keys read from PEM text (or the HMAC
 * secret itself), and the error texts OPA's JWS code gives when a key or a signature is
 * wrong.
 */
import {
  constants,
  createHmac,
  createPrivateKey,
  createPublicKey,
  type KeyObject,
  sign,
  timingSafeEqual,
  verify,
} from "node:crypto";
import { goQuote } from "./go-json.js";

type Family = "RSA" | "PSS" | "EC" | "HMAC";

interface Algorithm {
  family: Family;
  hash: "sha256" | "sha384" | "sha512";
}

const ALGORITHMS: Record<string, Algorithm> = {
  RS256: { family: "RSA", hash: "sha256" },
  RS384: { family: "RSA", hash: "sha384" },
  RS512: { family: "RSA", hash: "sha512" },
  PS256: { family: "PSS", hash: "sha256" },
  PS384: { family: "PSS", hash: "sha384" },
  PS512: { family: "PSS", hash: "sha512" },
  ES256: { family: "EC", hash: "sha256" },
  ES384: { family: "EC", hash: "sha384" },
  ES512: { family: "EC", hash: "sha512" },
  HS256: { family: "HMAC", hash: "sha256" },
  HS384: { family: "HMAC", hash: "sha384" },
  HS512: { family: "HMAC", hash: "sha512" },
};

/** The signing algorithms OPA supports for bundles (its `keys` configuration lists them). */
export const SIGNING_ALGORITHMS = Object.keys(ALGORITHMS);

/** A key ready to sign or verify: an HMAC secret or an asymmetric key. */
export type JwsKey = { kind: "secret"; secret: Buffer } | { kind: "asymmetric"; key: KeyObject };

function algorithm(alg: string): Algorithm {
  const a = ALGORITHMS[alg];
  if (!a) throw new Error(`unsupported signature algorithm: ${alg}`);
  return a;
}

/** The first PEM block of `text`: its type and DER bytes, as Go's pem.Decode finds it. */
function pemBlock(text: string): { type: string; der: Buffer } | undefined {
  const m = /-----BEGIN ([^-\r\n]+)-----\r?\n?([\s\S]*?)-----END \1-----/.exec(text);
  if (!m) return undefined;
  return { type: m[1] as string, der: Buffer.from((m[2] as string).replace(/\s+/g, ""), "base64") };
}

function goKeyType(key: KeyObject, visibility: "Public" | "Private"): string {
  const type = key.asymmetricKeyType === "ec" ? "ecdsa" : key.asymmetricKeyType;
  return `*${type}.${visibility}Key`;
}

/** The private key (or HMAC secret) a bundle is signed with, from its PEM text. */
export function signingKey(keyText: string, alg: string): JwsKey {
  const a = algorithm(alg);
  if (a.family === "HMAC") return { kind: "secret", secret: Buffer.from(keyText, "utf8") };
  const block = pemBlock(keyText);
  if (!block) throw new Error("failed to parse PEM block containing the key");
  const formats =
    a.family === "EC"
      ? [{ type: "sec1", label: "x509: failed to parse EC private key" }]
      : [{ type: "pkcs1", label: "x509: failed to parse private key" }];
  const errors: string[] = [];
  for (const f of [...formats, { type: "pkcs8", label: "x509: failed to parse private key" }]) {
    try {
      const key = createPrivateKey({
        key: block.der,
        format: "der",
        type: f.type as "pkcs1" | "pkcs8" | "sec1",
      });
      return { kind: "asymmetric", key };
    } catch {
      errors.push(f.label);
    }
  }
  throw new Error(`error parsing private key (${errors[0]}), (${errors[1]})`);
}

/** The public key (or HMAC secret) a bundle signature is verified with, from its PEM text. */
export function verificationKey(keyText: string, alg: string): JwsKey {
  const a = algorithm(alg);
  if (a.family === "HMAC") return { kind: "secret", secret: Buffer.from(keyText, "utf8") };
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
  return { kind: "asymmetric", key };
}

function base64url(data: Buffer | string): string {
  return Buffer.from(data).toString("base64url");
}

function requireKeyType(key: JwsKey, family: Family, visibility: "Public" | "Private"): KeyObject {
  const wanted = family === "EC" ? "ec" : "rsa";
  const required = `*${family === "EC" ? "ecdsa" : "rsa"}.${visibility}Key`;
  if (key.kind === "secret") throw new Error(`invalid key type []uint8. ${required} is required`);
  if (key.key.asymmetricKeyType !== wanted)
    throw new Error(`invalid key type ${goKeyType(key.key, visibility)}. ${required} is required`);
  return key.key;
}

function signature(input: Buffer, alg: string, key: JwsKey): Buffer {
  const a = algorithm(alg);
  if (a.family === "HMAC") {
    if (key.kind !== "secret") throw new Error("hmac sign: invalid key type");
    return createHmac(a.hash, key.secret).update(input).digest();
  }
  const k = requireKeyType(key, a.family, "Private");
  if (a.family === "EC") return sign(a.hash, input, { key: k, dsaEncoding: "ieee-p1363" });
  if (a.family === "PSS")
    return sign(a.hash, input, {
      key: k,
      padding: constants.RSA_PKCS1_PSS_PADDING,
      saltLength: constants.RSA_PSS_SALTLEN_DIGEST,
    });
  return sign(a.hash, input, k);
}

/**
 * A compact JWS over `payload` with the header `{"alg":…}` plus `"kid"` when given, the
 * header OPA writes.
 */
export function signCompact(payload: string, alg: string, key: JwsKey, kid?: string): string {
  algorithm(alg);
  const header = `{"alg":${goQuote(alg, true)}${kid ? `,"kid":${goQuote(kid, true)}` : ""}}`;
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
  const a = algorithm(alg);
  if (a.family === "HMAC") {
    if (key.kind !== "secret") throw new Error("failed to generated signature: invalid key type");
    const expected = createHmac(a.hash, key.secret).update(input).digest();
    // Go wraps a nil error here, so OPA's text ends in %!w(<nil>).
    if (expected.length !== sig.length || !timingSafeEqual(expected, sig))
      throw new Error("failed to match hmac signature: %!w(<nil>)");
    return;
  }
  const k = requireKeyType(key, a.family, "Public");
  if (a.family === "EC") {
    if (!verify(a.hash, input, { key: k, dsaEncoding: "ieee-p1363" }, sig))
      throw new Error("failed to verify signature using ecdsa");
    return;
  }
  const ok =
    a.family === "PSS"
      ? verify(
          a.hash,
          input,
          {
            key: k,
            padding: constants.RSA_PKCS1_PSS_PADDING,
            saltLength: constants.RSA_PSS_SALTLEN_AUTO,
          },
          sig,
        )
      : verify(a.hash, input, k, sig);
  if (!ok) throw new Error("crypto/rsa: verification error");
}

/**
 * Verifies a compact JWS with `alg` and `key` (the algorithm configured for the key, as OPA
 * does, not the token's header); throws OPA's message when it does not verify.
 */
export function verifyCompact(token: string, alg: string, key: JwsKey): void {
  algorithm(alg);
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
