/**
 * Verification and signing keys for the JWT builtins: PEM certificates, PEM public keys,
 * single JWKs and JWK sets, with OPA's error messages.
 */
import { createPrivateKey, createPublicKey, type KeyObject, X509Certificate } from "node:crypto";
import { BuiltinError } from "../../errors.js";
import { pemDecode } from "../crypto/go-encoding.js";

export interface VerificationKey {
  /** The JWK's `alg`, empty when unknown. */
  alg: string;
  kid: string;
  /** A public KeyObject, or the raw secret of an `oct` JWK. */
  key: KeyObject | Buffer;
}

/** JWK members as parsed from JSON. */
type Jwk = Record<string, unknown>;

function parseJwkSet(text: string): Jwk[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new BuiltinError(`failed to parse a JWK key (set): ${(e as Error).message}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new BuiltinError("failed to parse a JWK key (set): not a JSON object");
  }
  const keys = (parsed as { keys?: unknown }).keys;
  if (Array.isArray(keys)) return keys as Jwk[];
  return [parsed as Jwk];
}

/** A KeyObject (or secret bytes) for one JWK; `priv` selects the private half. */
export function jwkToKey(jwk: Jwk, priv: boolean): KeyObject | Buffer {
  if (jwk.kty === "oct") {
    if (typeof jwk.k !== "string") throw new Error("missing k");
    return Buffer.from(jwk.k, "base64url");
  }
  if (jwk.kty !== "RSA" && jwk.kty !== "EC" && jwk.kty !== "OKP") {
    throw new Error(`invalid key type from JSON (${String(jwk.kty)})`);
  }
  const input = { key: jwk as never, format: "jwk" as const };
  if (priv && jwk.d !== undefined) return createPrivateKey(input);
  const pub = { ...jwk };
  for (const k of ["d", "p", "q", "dp", "dq", "qi"]) delete pub[k];
  return createPublicKey({ key: pub as never, format: "jwk" });
}

/** Keys from a certificate, public key or JWK (set), as OPA's verify builtins accept them. */
export function keysFromCertOrJwk(text: string): VerificationKey[] {
  const { block, rest } = pemDecode(text);
  if (block) {
    if (rest.length > 0) throw new BuiltinError("extra data after a PEM certificate block");
    if (block.type === "CERTIFICATE") {
      try {
        return [{ alg: "", kid: "", key: new X509Certificate(block.bytes).publicKey }];
      } catch (e) {
        throw new BuiltinError(`failed to parse a PEM certificate: ${(e as Error).message}`);
      }
    }
    if (block.type === "PUBLIC KEY") {
      try {
        return [
          {
            alg: "",
            kid: "",
            key: createPublicKey({ key: block.bytes, format: "der", type: "spki" }),
          },
        ];
      } catch (e) {
        throw new BuiltinError(`failed to parse a PEM public key: ${(e as Error).message}`);
      }
    }
    throw new BuiltinError("failed to extract a Key from the PEM certificate");
  }
  return parseJwkSet(text).map((jwk) => {
    try {
      return {
        alg: typeof jwk.alg === "string" ? jwk.alg : "",
        kid: typeof jwk.kid === "string" ? jwk.kid : "",
        key: jwkToKey(jwk, false),
      };
    } catch (e) {
      throw new BuiltinError(`failed to parse a JWK key (set): ${(e as Error).message}`);
    }
  });
}

/** The first key of a JWK (set) for signing. */
export function signingKeyFromJwk(text: string): KeyObject | Buffer {
  const [first] = parseJwkSet(text);
  if (!first) throw new BuiltinError("failed to parse a JWK key (set): no keys");
  try {
    return jwkToKey(first, true);
  } catch (e) {
    throw new BuiltinError(`failed to parse a JWK key (set): ${(e as Error).message}`);
  }
}
