/**
 * A float result as OPA hands it back. OPA turns a big.Float result into number text with
 * Text('f', -1) when it is integral and Text('g', -1) otherwise: the shortest digits that read
 * back as the same 64-bit value, in Go's %g layout (exponent form below 1e-4 and from 1e6 up,
 * two-digit exponents). Integral results become plain integers; a fraction stays a plain
 * double when Go's text is the double's own text, and is a DecimalNumber carrying Go's text
 * otherwise (`0.3 - 0.2` is 0.10000000000000000001).
 */
import { BuiltinError } from "../errors.js";
import { DecimalNumber, normalizeNumber, type RegoNumber } from "../value/number.js";
import { type BigFloat, bigFloatToInteger, isIntegralBig, toDouble } from "./big-float.js";
import { shortestOf } from "./shortest-digits.js";

/** Go's %g layout of shortest digits (|x| = 0.digits × 10^point). */
export function goGeneralText(neg: boolean, digits: string, point: number): string {
  const sign = neg ? "-" : "";
  const exp = point - 1;
  // With shortest digits Go decides on exponent form as if the precision were 6.
  if (exp < -4 || exp >= 6) {
    const rest = digits.length > 1 ? `.${digits.slice(1)}` : "";
    const mag = Math.abs(exp);
    return `${sign}${digits[0]}${rest}e${exp < 0 ? "-" : "+"}${mag < 10 ? `0${mag}` : mag}`;
  }
  if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${"0".repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** The Rego number for a big-float result; overflow is refused as OPA's out of range. */
export function floatResult(fn: string, x: BigFloat): RegoNumber {
  const d = toDouble(x);
  if (!Number.isFinite(d)) throw new BuiltinError(`${fn}: arithmetic result out of range`);
  if (isIntegralBig(x)) return normalizeNumber(bigFloatToInteger(x));
  if (d === 0) return 0; // below the doubles' range; no text to keep
  const { digits, point } = shortestOf(x.mant, x.exp);
  const text = goGeneralText(x.neg, digits, point);
  return text === String(d) ? d : new DecimalNumber(d, text);
}
