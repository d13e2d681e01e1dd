/**
 * Splitting and decoding compact JWS tokens the way OPA's io.jwt builtins do, with their
 * error messages.
 */
import { BuiltinError } from "../../errors.js";
import { RegoObject, type Value } from "../../value/value.js";
import { base64UrlDecodeLenient } from "../crypto/go-encoding.js";
import { readJSON } from "./json-reader.js";

export interface RawToken {
  header: string;
  payload: string;
  signature: string;
}

/** The three encoded sections of a compact token. */
export function splitToken(token: string): RawToken {
  if (!token.includes(".")) throw new BuiltinError("encoded JWT had no period separators");
  const parts = token.split(".");
  if (parts.length !== 3)
    throw new BuiltinError(`encoded JWT must have 3 sections, found ${parts.length}`);
  const [header, payload, signature] = parts as [string, string, string];
  return { header, payload, signature };
}

/** base64url-decodes one section; `what` names it in the error ("JWT header"). */
export function decodeSection(encoded: string, what: string): Buffer {
  try {
    return base64UrlDecodeLenient(encoded);
  } catch (e) {
    throw new BuiltinError(`${what} had invalid encoding: ${(e as Error).message}`);
  }
}

/** JSON text that must hold an object. */
export function jsonObject(text: string): RegoObject {
  let v: Value;
  try {
    v = readJSON(text);
  } catch (e) {
    throw new BuiltinError(`invalid JSON: ${(e as Error).message}`);
  }
  if (!(v instanceof RegoObject)) throw new BuiltinError("decoded JSON type was not an Object");
  return v;
}

/** The decoded header object; JWE tokens (with `enc`) are refused. */
export function decodeHeader(token: RawToken): RegoObject {
  const header = jsonObject(decodeSection(token.header, "JWT header").toString("utf8"));
  if (header.has("enc")) throw new BuiltinError("JWT is a JWE object, which is not supported");
  return header;
}

/** Header fields decode_verify looks at. */
export interface TokenHeader {
  alg: string;
  kid: string;
  cty: string;
  /** False when `alg` is missing or a `crit` extension is named (none is understood). */
  valid: boolean;
}

export function parseHeader(header: RegoObject): TokenHeader {
  const str = (k: string) => {
    const v = header.get(k);
    return typeof v === "string" ? v : "";
  };
  const crit = header.get("crit");
  const hasCrit = Array.isArray(crit) && crit.length > 0;
  return {
    alg: str("alg"),
    kid: str("kid"),
    cty: str("cty"),
    valid: str("alg") !== "" && !hasCrit,
  };
}

/** io.jwt.decode: header, payload and hex signature, following nested (cty JWT) tokens. */
export function decodeToken(text: string): [RegoObject, RegoObject, string] {
  const token = splitToken(text);
  const header = decodeHeader(token);
  const payload = decodeSection(token.payload, "JWT payload").toString("utf8");
  if (header.get("cty") === "JWT") return decodeToken(payload.replace(/^["']+|["']+$/g, ""));
  const claims = jsonObject(payload);
  const signature = decodeSection(token.signature, "JWT signature");
  return [header, claims, signature.toString("hex")];
}
