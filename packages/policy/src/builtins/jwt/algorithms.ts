/**
 * JWS algorithms (RFC 7518): HMAC, RSA PKCS#1 v1.5, RSA-PSS, ECDSA with raw r||s signatures,
 * and EdDSA, on node:crypto.
 */
import {
  constants,
  createHmac,
  sign as cryptoSign,
  verify as cryptoVerify,
  KeyObject,
  timingSafeEqual,
} from "node:crypto";

type Family = "HS" | "RS" | "PS" | "ES" | "EdDSA";

interface Algorithm {
  family: Family;
  hash: string | null;
}

const algorithms: Record<string, Algorithm> = {
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

/** True for the algorithm names OPA knows. */
export function isKnownAlgorithm(alg: string): boolean {
  return Object.hasOwn(algorithms, alg);
}

function keyOptions(family: Family, key: KeyObject): Parameters<typeof cryptoVerify>[2] {
  if (family === "PS") {
    return {
      key,
      padding: constants.RSA_PKCS1_PSS_PADDING,
      saltLength: constants.RSA_PSS_SALTLEN_AUTO,
    };
  }
  if (family === "ES") return { key, dsaEncoding: "ieee-p1363" };
  return key;
}

function keyFits(family: Family, key: KeyObject): boolean {
  const type = key.asymmetricKeyType;
  if (family === "RS" || family === "PS") return type === "rsa" || type === "rsa-pss";
  if (family === "ES") return type === "ec";
  return type === "ed25519" || type === "ed448";
}

/** Whether `signature` is valid for `data` under `alg` and `key`; mismatched keys fail. */
export function verifySignature(
  alg: string,
  key: KeyObject | Buffer,
  data: string,
  signature: Buffer,
): boolean {
  const a = algorithms[alg];
  if (!a) return false;
  if (a.family === "HS") {
    if (!Buffer.isBuffer(key)) return false;
    const mac = createHmac(a.hash as string, key)
      .update(data)
      .digest();
    return mac.length === signature.length && timingSafeEqual(mac, signature);
  }
  if (!(key instanceof KeyObject) || !keyFits(a.family, key)) return false;
  try {
    return cryptoVerify(a.hash, Buffer.from(data), keyOptions(a.family, key), signature);
  } catch {
    return false;
  }
}

/** Signs `data` with `alg`; throws when the key does not suit the algorithm. */
export function signData(alg: string, key: KeyObject | Buffer, data: string): Buffer {
  const a = algorithms[alg];
  if (!a) throw new Error(`unknown JWS algorithm: ${alg}`);
  if (a.family === "HS") {
    if (!Buffer.isBuffer(key)) throw new Error(`${alg} requires a symmetric (oct) key`);
    return createHmac(a.hash as string, key)
      .update(data)
      .digest();
  }
  if (!(key instanceof KeyObject) || key.type !== "private" || !keyFits(a.family, key)) {
    throw new Error(`${alg} requires a matching private key`);
  }
  const options =
    a.family === "PS"
      ? {
          key,
          padding: constants.RSA_PKCS1_PSS_PADDING,
          saltLength: constants.RSA_PSS_SALTLEN_DIGEST,
        }
      : a.family === "ES"
        ? { key, dsaEncoding: "ieee-p1363" as const }
        : key;
  return cryptoSign(a.hash, Buffer.from(data), options);
}
