/**
 * io.jwt builtins: decode, verify signatures (HMAC, RSA, RSA-PSS, ECDSA, EdDSA), decode with
 * claim checks, and sign. Keys are PEM certificates or public keys, or JWK (set) JSON.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { verifySignature } from "../../lib/jws/algorithms.js";
import type { Value } from "../../value/value.js";
import { asObject, asString } from "../args.js";
import { namedErrors } from "../crypto/error-prefix.js";
import { marshalJSON } from "../encoding.js";
import type { BuiltinDef } from "../registry-types.js";
import { decodeVerify } from "./decode-verify.js";
import { encodeSign } from "./encode.js";
import { keysFromCertOrJwk } from "./keys.js";
import { decodeHeader, decodeSection, decodeToken, parseHeader, splitToken } from "./token.js";

/** verify_rs256 and friends: true when any given key verifies the token's signature. */
function verifyWithKeys(fn: string, alg: string, args: Value[]): boolean {
  const token = splitToken(asString(fn, args[0] as Value, 1));
  const keys = keysFromCertOrJwk(asString(fn, args[1] as Value, 2));
  const signature = decodeSection(token.signature, "JWT signature");
  const header = parseHeader(decodeHeader(token));
  const data = `${token.header}.${token.payload}`;
  if (header.kid !== "") {
    const byKid = keys.find((k) => k.kid === header.kid);
    if (byKid) return verifySignature(alg, byKid.key, data, signature);
  }
  return keys.some((k) => verifySignature(alg, k.key, data, signature));
}

/** verify_hs256 and friends: HMAC of header.payload with the secret. */
function verifyHmac(fn: string, hash: string, args: Value[]): boolean {
  const token = splitToken(asString(fn, args[0] as Value, 1));
  const secret = asString(fn, args[1] as Value, 2);
  const mac = createHmac(hash, secret).update(`${token.header}.${token.payload}`).digest();
  const signature = decodeSection(token.signature, "JWT signature");
  return mac.length === signature.length && timingSafeEqual(mac, signature);
}

const asymmetric = ["RS", "PS", "ES"].flatMap((family) =>
  ["256", "384", "512"].map((bits): BuiltinDef => {
    const name = `io.jwt.verify_${family.toLowerCase()}${bits}`;
    return {
      name,
      args: ["string", "string"],
      result: "boolean",
      impl: (args) => verifyWithKeys(name, `${family}${bits}`, args),
    };
  }),
);

const hmac = ["256", "384", "512"].map((bits): BuiltinDef => {
  const name = `io.jwt.verify_hs${bits}`;
  return {
    name,
    args: ["string", "string"],
    result: "boolean",
    impl: (args) => verifyHmac(name, `sha${bits}`, args),
  };
});

const definitions: BuiltinDef[] = [
  ...asymmetric,
  ...hmac,
  {
    name: "io.jwt.verify_eddsa",
    args: ["string", "string"],
    result: "boolean",
    impl: (args) => verifyWithKeys("io.jwt.verify_eddsa", "EdDSA", args),
  },
  {
    name: "io.jwt.decode",
    args: ["string"],
    result: "array",
    impl: ([jwt]) => decodeToken(asString("io.jwt.decode", jwt as Value, 1)),
  },
  {
    name: "io.jwt.decode_verify",
    args: ["string", "object[string, any]"],
    result: "array",
    impl: ([jwt, constraints], ctx) =>
      decodeVerify(
        asString("io.jwt.decode_verify", jwt as Value, 1),
        asObject("io.jwt.decode_verify", constraints as Value, 2),
        ctx.nowNs,
      ),
  },
  {
    name: "io.jwt.encode_sign",
    args: ["object[string, any]", "object[string, any]", "object[string, any]"],
    result: "string",
    nondeterministic: true,
    impl: ([headers, payload, key]) => {
      const fn = "io.jwt.encode_sign";
      return encodeSign(
        marshalJSON(asObject(fn, headers as Value, 1)),
        marshalJSON(asObject(fn, payload as Value, 2)),
        marshalJSON(asObject(fn, key as Value, 3)),
      );
    },
  },
  {
    name: "io.jwt.encode_sign_raw",
    args: ["string", "string", "string"],
    result: "string",
    nondeterministic: true,
    impl: ([headers, payload, key]) => {
      const fn = "io.jwt.encode_sign_raw";
      return encodeSign(
        asString(fn, headers as Value, 1),
        asString(fn, payload as Value, 2),
        asString(fn, key as Value, 3),
      );
    },
  },
];

export const jwtBuiltins: BuiltinDef[] = definitions.map(namedErrors);
