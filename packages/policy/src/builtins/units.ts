/**
 * units.parse (SI and binary suffixes, milli `m`) and units.parse_bytes (byte suffixes, case
 * insensitive, truncated to an integer). Amounts are multiplied as exact rationals, so
 * "0.0000005M" is exactly 0.5 and "10Ei" keeps every digit; non-integers are rounded to
 * ten decimals, as OPA prints them.
 */
import { BuiltinError } from "../errors.js";
import { normalizeNumber, type RegoNumber } from "../value/number.js";
import type { Value } from "../value/value.js";
import { asString } from "./args.js";
import { withNamePrefix } from "./error-prefix.js";
import type { BuiltinDef } from "./registry-types.js";

/** An exact rational number. */
interface Rational {
  num: bigint;
  den: bigint;
}

const SI: Record<string, number> = { k: 3, m: 6, g: 9, t: 12, p: 15, e: 18 };
const BINARY: Record<string, number> = { k: 10, m: 20, g: 30, t: 40, p: 50, e: 60 };
const MAX_EXPONENT_DIGITS = 6;

/** The double nearest 0.001, exactly: OPA scales milli by that float, not by 1/1000. */
const MILLI: Rational = (() => {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, 0.001);
  const bits = view.getBigUint64(0);
  const exponent = Number((bits >> 52n) & 0x7ffn) - 1075;
  const mantissa = (bits & ((1n << 52n) - 1n)) | (1n << 52n);
  return { num: mantissa, den: 1n << BigInt(-exponent) };
})();

const ratio = (num: bigint, den = 1n): Rational => ({ num, den });
const power = (base: bigint, exp: number): bigint => base ** BigInt(exp);

/** units.parse multipliers: case matters only for `m` (milli) against `M` (mega). */
function unitFactor(suffix: string): Rational | undefined {
  if (suffix === "") return ratio(1n);
  if (suffix === "m") return MILLI;
  const unit = suffix[0] + suffix.slice(1).toLowerCase();
  if (unit === "M") return ratio(power(10n, 6));
  const m = /^([kKgGtTpPeE])(i?)$|^([mM])i$/.exec(unit);
  if (!m) return undefined;
  if (m[3]) return ratio(power(2n, 20));
  const letter = (m[1] as string).toLowerCase();
  return m[2]
    ? ratio(power(2n, BINARY[letter] as number))
    : ratio(power(10n, SI[letter] as number));
}

/** units.parse_bytes multipliers, already lower-cased: `k`/`kb` (SI) and `ki`/`kib` (binary). */
function byteFactor(suffix: string): Rational | undefined {
  if (suffix === "") return ratio(1n);
  const m = /^([kmgtpe])(i?)b?$/.exec(suffix);
  if (!m) return undefined;
  const letter = m[1] as string;
  return m[2]
    ? ratio(power(2n, BINARY[letter] as number))
    : ratio(power(10n, SI[letter] as number));
}

/**
 * Splits "2.5e3Ki" into "2.5e3" and "Ki": the amount is the leading run of digits, dots,
 * signs and exponent markers (an `e` only when a digit or sign follows). Undefined when an
 * exponent has too many digits.
 */
function splitAmount(s: string): [string, string] | undefined {
  const isDigit = (c: string | undefined) => c !== undefined && c >= "0" && c <= "9";
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string;
    if (c === "e" || c === "E") {
      const next = s[i + 1];
      if (!isDigit(next) && next !== "+" && next !== "-") return [s.slice(0, i), s.slice(i)];
      if (next === "+" || next === "-") i++;
      let end = i + 1;
      while (isDigit(s[end])) end++;
      if (end - (i + 1) > MAX_EXPONENT_DIGITS) return undefined;
    } else if (!isDigit(c) && c !== "." && c !== "+" && c !== "-") {
      return [s.slice(0, i), s.slice(i)];
    }
  }
  return [s, ""];
}

/** Parses a decimal literal (sign, digits, point, exponent) exactly, as big.Rat does. */
function parseRational(text: string): Rational | undefined {
  const m = /^([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?$/.exec(text);
  if (!m || (m[2] === "" && (m[3] ?? "") === "")) return undefined;
  const fraction = m[3] ?? "";
  const digits = BigInt(`${m[2]}${fraction}` || "0");
  const exponent = Number(m[4] ?? 0) - fraction.length;
  const num = m[1] === "-" ? -digits : digits;
  return exponent >= 0 ? ratio(num * power(10n, exponent)) : ratio(num, power(10n, -exponent));
}

function multiply(a: Rational, b: Rational): Rational {
  return { num: a.num * b.num, den: a.den * b.den };
}

/** An integer when the value is one; otherwise rounded to 10 decimals like big.Rat.FloatString. */
function toRegoNumber(r: Rational): RegoNumber {
  if (r.num % r.den === 0n) return normalizeNumber(r.num / r.den);
  const scaled = r.num * power(10n, 10);
  const negative = scaled < 0n;
  const abs = negative ? -scaled : scaled;
  let q = abs / r.den;
  if ((abs % r.den) * 2n >= r.den) q++;
  const text = q.toString().padStart(11, "0");
  return Number(`${negative ? "-" : ""}${text.slice(0, -10)}.${text.slice(-10)}`);
}

function parseUnits(args: Value[]): Value {
  const fn = "units.parse";
  const s = asString(fn, args[0] as Value, 1).replaceAll('"', "");
  if (s.includes(" ")) throw new BuiltinError(`${fn}: spaces not allowed in resource strings`);
  const split = splitAmount(s);
  if (!split) throw new BuiltinError(`${fn}: exponent too large`);
  const [amount, suffix] = split;
  if (amount === "") throw new BuiltinError(`${fn}: no amount provided`);
  const factor = unitFactor(suffix);
  if (!factor) throw new BuiltinError(`${fn}: unit ${suffix} not recognized`);
  const r = parseRational(amount);
  if (!r) throw new BuiltinError(`${fn}: could not parse amount to a number`);
  return toRegoNumber(multiply(r, factor));
}

/** units.parse_bytes: case-insensitive units, the product truncated toward zero. */
function parseBytes(args: Value[]): Value {
  const fn = "units.parse_bytes";
  const s = asString(fn, args[0] as Value, 1)
    .toLowerCase()
    .replaceAll('"', "");
  if (s.includes(" ")) throw new BuiltinError(`${fn}: spaces not allowed in resource strings`);
  const split = splitAmount(s);
  if (!split) throw new BuiltinError(`${fn}: exponent too large`);
  const [amount, suffix] = split;
  if (amount === "") throw new BuiltinError(`${fn}: no byte amount provided`);
  const factor = byteFactor(suffix);
  if (!factor) throw new BuiltinError(`${fn}: byte unit ${suffix} not recognized`);
  const r = parseRational(amount);
  if (!r) throw new BuiltinError(`${fn}: could not parse byte amount to a number`);
  const product = multiply(r, factor);
  return normalizeNumber(product.num / product.den);
}

export const unitsBuiltins: BuiltinDef[] = withNamePrefix([
  { name: "units.parse", args: ["string"], result: "number", impl: parseUnits },
  { name: "units.parse_bytes", args: ["string"], result: "number", impl: parseBytes },
]);
