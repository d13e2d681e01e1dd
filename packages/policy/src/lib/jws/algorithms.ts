/**
 * JWS algorithms (RFC 7518) on node:crypto, the one implementation bundle signatures and the
 * io.jwt builtins share: HMAC, RSA PKCS#1 v1.5, RSA-PSS, ECDSA with raw r||s signatures, and
 * EdDSA. Callers word their own errors; this file only signs and checks.
 */
import {
  constants,
  createHmac,
  sign as cryptoSign,
  verify as cryptoVerify,
  KeyObject,
  timingSafeEqual,
} from "node:crypto";

export type JwsFamily = "HS" | "RS" | "PS" | "ES" | "EdDSA";

export interface JwsAlgorithm {
  family: JwsFamily;
  /** The digest; null for EdDSA, which hashes inside the signature scheme. */
  hash: string | null;
}

/** An HMAC secret (bytes) or an asymmetric key. */
export type JwsKey = KeyObject | Buffer;

const algorithms: Record<string, JwsAlgorithm> = {
  HS256: { family: "HS", hash: "sha256" },
  HS384: { family: "HS", hash: "sha384" },
  HS512: { family: "HS", hash: "sha512" },
  RS256: { family: "RS", hash: "sha256" },
  RS384: { family: "RS", hash: "sha384" },
  RS512: { family: "RS", hash: "sha512" },
  PS256: { family: "PS", hash: "sha256" },
  PS384: { family: "PS", hash: "sha384" },
  PS512: { family: "PS", hash: "sha512" },
  ES256: { family: "ES", hash: "sha256" },
  ES384: { family: "ES", hash: "sha384" },
  ES512: { family: "ES", hash: "sha512" },
  EdDSA: { family: "EdDSA", hash: null },
};

/** The algorithm called `name`, if it is one of RFC 7518's that OPA knows. */
export function jwsAlgorithm(name: string): JwsAlgorithm | undefined {
  return Object.hasOwn(algorithms, name) ? algorithms[name] : undefined;
}

/** True for the algorithm names OPA knows. */
export function isKnownAlgorithm(alg: string): boolean {
  return jwsAlgorithm(alg) !== undefined;
}

/** Every algorithm name, in RFC 7518's order of families. */
export const JWS_ALGORITHMS: readonly string[] = Object.keys(algorithms);

/** Whether an asymmetric key is of the kind `family` signs with (RSA-PSS keys count as RSA). */
export function keyFits(family: JwsFamily, key: KeyObject): boolean {
  const type = key.asymmetricKeyType;
  if (family === "RS" || family === "PS") return type === "rsa" || type === "rsa-pss";
  if (family === "ES") return type === "ec";
  return type === "ed25519" || type === "ed448";
}

/** node:crypto's options for `family`: PSS padding and salt, or raw ECDSA signatures. */
function keyOptions(family: JwsFamily, key: KeyObject, use: "sign" | "verify") {
  if (family === "PS") {
    // Signers use a salt as long as the digest (RFC 7518); verifiers accept any length.
    const saltLength =
      use === "sign" ? constants.RSA_PSS_SALTLEN_DIGEST : constants.RSA_PSS_SALTLEN_AUTO;
    return { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength };
  }
  if (family === "ES") return { key, dsaEncoding: "ieee-p1363" as const };
  return key;
}

/**
 * The signature of `input`. The caller has checked the key: a Buffer secret for HS, a
 * private KeyObject of the algorithm's kind otherwise.
 */
export function signInput(a: JwsAlgorithm, key: JwsKey, input: Buffer): Buffer {
  if (a.family === "HS")
    return createHmac(a.hash as string, key as Buffer)
      .update(input)
      .digest();
  return cryptoSign(a.hash, input, keyOptions(a.family, key as KeyObject, "sign"));
}

/**
 * Whether `signature` is valid for `input`; the caller has checked the key as for signInput
 * (a public key). node:crypto's own errors pass through.
 */
export function verifyInput(a: JwsAlgorithm, key: JwsKey, input: Buffer, signature: Buffer) {
  if (a.family === "HS") {
    const mac = createHmac(a.hash as string, key as Buffer)
      .update(input)
      .digest();
    return mac.length === signature.length && timingSafeEqual(mac, signature);
  }
  return cryptoVerify(a.hash, input, keyOptions(a.family, key as KeyObject, "verify"), signature);
}

/** Whether `signature` is valid for `data` under `alg` and `key`; mismatched keys fail. */
export function verifySignature(alg: string, key: JwsKey, data: string, signature: Buffer) {
  const a = jwsAlgorithm(alg);
  if (!a) return false;
  if (a.family === "HS") {
    if (!Buffer.isBuffer(key)) return false;
  } else if (!(key instanceof KeyObject) || !keyFits(a.family, key)) return false;
  try {
    return verifyInput(a, key, Buffer.from(data), signature);
  } catch {
    return false;
  }
}

/** Signs `data` with `alg`; throws when the key does not suit the algorithm. */
export function signData(alg: string, key: JwsKey, data: string): Buffer {
  const a = jwsAlgorithm(alg);
  if (!a) throw new Error(`unknown JWS algorithm: ${alg}`);
  if (a.family === "HS") {
    if (!Buffer.isBuffer(key)) throw new Error(`${alg} requires a symmetric (oct) key`);
  } else if (!(key instanceof KeyObject) || key.type !== "private" || !keyFits(a.family, key)) {
    throw new Error(`${alg} requires a matching private key`);
  }
  return signInput(a, key, Buffer.from(data));
}
