/**
 * io.jwt.encode_sign and encode_sign_raw: JWS compact serialisation of a header and payload,
 * signed with the first key of a JWK (set). The header and payload text is used verbatim.
 */
import { BuiltinError, isStackOverflow } from "../../errors.js";
import { isKnownAlgorithm, signData } from "../../lib/jws/algorithms.js";
import { RegoObject, type Value } from "../../value/value.js";
import { base64UrlEncode } from "../crypto/go-encoding.js";
import { readJSON } from "./json-reader.js";
import { signingKeyFromJwk } from "./keys.js";

function headerAlgorithm(headerText: string): { alg: string; typ: string } {
  const prefix = "missing or invalid 'alg' header";
  if (headerText.trim() === "")
    throw new BuiltinError(`${prefix}: cannot parse JSON: cannot parse empty string`);
  let header: Value;
  try {
    header = readJSON(headerText);
  } catch (e) {
    // The reader recurses per level: running out of stack is no verdict on the header.
    if (isStackOverflow(e)) throw e;
    if (headerText.trimStart().startsWith("{")) {
      throw new BuiltinError(`${prefix}: cannot parse JSON: ${(e as Error).message}`);
    }
    header = null;
  }
  const alg = header instanceof RegoObject ? header.get("alg") : undefined;
  if (typeof alg !== "string") throw new BuiltinError(`${prefix}: jwsbb: header "alg" not found`);
  const typ = header instanceof RegoObject ? header.get("typ") : undefined;
  return { alg, typ: typeof typ === "string" ? typ : "" };
}

function isJSON(text: string): boolean {
  try {
    readJSON(text);
    return true;
  } catch (e) {
    if (isStackOverflow(e)) throw e;
    return false;
  }
}

/** Signs `payloadText` under `headerText` with the first key of `jwkText`. */
export function encodeSign(headerText: string, payloadText: string, jwkText: string): string {
  const key = signingKeyFromJwk(jwkText);
  const { alg, typ } = headerAlgorithm(headerText);
  if ((typ === "" || typ === "JWT") && !isJSON(payloadText)) {
    throw new BuiltinError("type is JWT but payload is not JSON");
  }
  if (!isKnownAlgorithm(alg)) throw new BuiltinError(`unknown JWS algorithm: ${alg}`);
  const signingInput = `${base64UrlEncode(headerText)}.${base64UrlEncode(payloadText)}`;
  let signature: Buffer;
  try {
    signature = signData(alg, key, signingInput);
  } catch (e) {
    throw new BuiltinError(`failed to sign payload: ${(e as Error).message}`);
  }
  return `${signingInput}.${base64UrlEncode(signature)}`;
}
