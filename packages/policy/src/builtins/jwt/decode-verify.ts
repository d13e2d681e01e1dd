/**
 * io.jwt.decode_verify: verify a token's signature against the given keys or secret, then
 * its registered claims (iss, aud, exp, nbf) against the constraints, as OPA does.
 */
import { BuiltinError } from "../../errors.js";
import { isKnownAlgorithm, verifySignature } from "../../lib/jws/algorithms.js";
import { formatValue } from "../../value/format.js";
import { isNumber, toFloat } from "../../value/number.js";
import { RegoObject, type Value } from "../../value/value.js";
import { keysFromCertOrJwk, type VerificationKey } from "./keys.js";
import { decodeHeader, decodeSection, jsonObject, parseHeader, splitToken } from "./token.js";

interface Constraints {
  keys?: VerificationKey[];
  secret: string;
  alg: string;
  iss: string;
  aud: string;
  /** Nanoseconds since the epoch. */
  time: number;
}

function constraintString(name: string, v: Value): string {
  if (typeof v !== "string") throw new BuiltinError(`${name} constraint: must be a string`);
  return v;
}

function constraintTime(v: Value): number {
  if (!isNumber(v)) throw new BuiltinError("token time constraint: must be a number");
  const t = toFloat(v);
  if (t < 0) throw new BuiltinError("token time constraint: must not be negative");
  return t;
}

function parseConstraints(o: RegoObject, nowNs: bigint): Constraints {
  const c: Constraints = { secret: "", alg: "", iss: "", aud: "", time: Number(nowNs) };
  for (const [k, v] of o.entries()) {
    const name = typeof k === "string" ? k : formatValue(k);
    switch (name) {
      case "cert":
        c.keys = keysFromCertOrJwk(constraintString(name, v));
        break;
      case "secret":
      case "alg":
      case "iss":
      case "aud":
        c[name] = constraintString(name, v);
        break;
      case "time":
        c.time = constraintTime(v);
        break;
      default:
        throw new BuiltinError(`unknown token validation constraint: ${name}`);
    }
  }
  const keyKinds = (c.keys ? 1 : 0) + (c.secret !== "" ? 1 : 0);
  if (keyKinds > 1) throw new BuiltinError("duplicate key constraints");
  if (keyKinds < 1) throw new BuiltinError("no key constraint");
  return c;
}

function verifyWithConstraints(
  c: Constraints,
  alg: string,
  kid: string,
  data: string,
  signature: Buffer,
): boolean {
  if (!isKnownAlgorithm(alg)) throw new BuiltinError(`unknown JWS algorithm: ${alg}`);
  if (!c.keys) return verifySignature(alg, Buffer.from(c.secret, "utf8"), data, signature);
  if (kid !== "") {
    const byKid = c.keys.find((k) => k.kid === kid);
    if (byKid) return verifySignature(alg, byKid.key, data, signature);
  }
  return c.keys.some(
    (k) => (k.alg === "" || k.alg === alg) && verifySignature(alg, k.key, data, signature),
  );
}

function validAudience(aud: Value, want: string): boolean {
  if (typeof aud === "string") return aud === want;
  return Array.isArray(aud) && aud.some((a) => a === want);
}

/** exp/nbf against the time; throws when a claim is not a number. */
function timeClaimsOk(payload: RegoObject, timeNs: number): boolean {
  const now = timeNs / 1e9;
  const exp = payload.get("exp");
  if (exp !== undefined) {
    if (!isNumber(exp)) throw new BuiltinError("exp value must be a number");
    if (now >= toFloat(exp)) return false;
  }
  const nbf = payload.get("nbf");
  if (nbf !== undefined) {
    if (!isNumber(nbf)) throw new BuiltinError("nbf value must be a number");
    if (now < toFloat(nbf)) return false;
  }
  return true;
}

/** `[valid, header, payload]`; invalid tokens give `[false, {}, {}]`. */
export function decodeVerify(tokenText: string, constraintsObj: RegoObject, nowNs: bigint): Value {
  const unverified: Value = [false, new RegoObject(), new RegoObject()];
  const c = parseConstraints(constraintsObj, nowNs);
  let text = tokenText;
  for (;;) {
    const token = splitToken(text);
    const header = decodeHeader(token);
    const h = parseHeader(header);
    if (!h.valid) return unverified;
    if (c.alg !== "" && c.alg !== h.alg) return unverified;
    const signature = decodeSection(token.signature, "JWT signature");
    if (!verifyWithConstraints(c, h.alg, h.kid, `${token.header}.${token.payload}`, signature))
      return unverified;
    const payloadText = decodeSection(token.payload, "JWT payload").toString("utf8");
    if (h.cty === "JWT") {
      text = payloadText;
      continue;
    }
    const payload = jsonObject(payloadText);
    if (c.iss !== "" && payload.get("iss") !== c.iss) return unverified;
    const aud = payload.get("aud");
    if (aud !== undefined ? !validAudience(aud, c.aud) : c.aud !== "") return unverified;
    if (!timeClaimsOk(payload, c.time)) return unverified;
    return [true, header, payload];
  }
}
