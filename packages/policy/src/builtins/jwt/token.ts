/**
 * Splitting and decoding compact JWS tokens the way OPA's io.jwt builtins do, with their
 * error messages.
 */
import { BuiltinError, isStackOverflow } from "../../errors.js";
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
    // The reader recurses per level: running out of stack is no verdict on the token.
    if (isStackOverflow(e)) throw e;
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
  /**
   * False when `alg` is missing, or when `crit` names a header parameter this implementation
   * does not know (RFC 7515 section 4.1.11).
   */
  valid: boolean;
}

const knownHeaderParameters = new Set(["alg", "kid", "typ", "cty", "crit"]);

function criticalParameters(v: Value): Set<string> {
  if (!Array.isArray(v)) throw new BuiltinError("crit: must be a list");
  const names = new Set<string>();
  for (const elem of v) {
    if (typeof elem !== "string") throw new BuiltinError("crit: must be a list of strings");
    names.add(elem);
  }
  if (names.size === 0) throw new BuiltinError("crit: must be a nonempty list");
  return names;
}

/** The registered header parameters; malformed ones are errors, as in OPA. */
export function parseHeader(header: RegoObject): TokenHeader {
  const str = (k: string) => {
    const v = header.get(k);
    if (v === undefined) return "";
    if (typeof v !== "string") throw new BuiltinError(`${k}: must be a string`);
    return v;
  };
  const h = { alg: str("alg"), kid: str("kid"), cty: str("cty"), typ: str("typ") };
  const critValue = header.get("crit");
  const crit = critValue === undefined ? new Set<string>() : criticalParameters(critValue);
  const unknownCritical = [...header.keys()].some(
    (k) => typeof k === "string" && !knownHeaderParameters.has(k) && crit.has(k),
  );
  return { alg: h.alg, kid: h.kid, cty: h.cty, valid: h.alg !== "" && !unknownCritical };
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
