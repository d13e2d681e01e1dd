/**
 * Rego numbers. OPA keeps integers of any size and exact decimals; we keep the common case
 * fast: a JS `number` for every float and every integer inside the safe range, a `bigint`
 * only for integers beyond it, and a DecimalNumber only for a number whose OPA text differs
 * from its double's (decimal-number.ts). Every producer must go through `normalizeNumber` so
 * that an integer in the safe range is never a bigint (map keys and equality rely on it).
 */
import {
  compareDecimals,
  type Decimal,
  DecimalNumber,
  parseDecimalText,
} from "./decimal-number.js";

export { DecimalNumber } from "./decimal-number.js";

export type RegoNumber = number | bigint | DecimalNumber;

/** A number without its text: what builtins other than arithmetic compute with. */
export type PlainNumber = number | bigint;

/** True for any Rego number. */
export function isNumber(v: unknown): v is RegoNumber {
  return typeof v === "number" || typeof v === "bigint" || v instanceof DecimalNumber;
}

/** True when the number has no fractional part. */
export function isInteger(n: RegoNumber): boolean {
  if (typeof n === "number") return Number.isInteger(n);
  return typeof n === "bigint" || isInteger(plainNumber(n));
}

/**
 * The number without its text: the double, or the exact integer when the text is integral
 * (`1.0`, `0.00`, `1e30`), as OPA's integer paths read such text.
 */
export function plainNumber(n: RegoNumber): PlainNumber {
  if (typeof n !== "object") return n;
  const d = n.exact;
  if (d.exp >= 0 && Math.abs(n.value) >= Number.MAX_SAFE_INTEGER) {
    const big = d.digits * 10n ** BigInt(d.exp);
    return normalizeNumber(d.neg ? -big : big);
  }
  return n.value === 0 ? 0 : n.value;
}

/** Canonical form: safe integers as `number`, larger integers as `bigint`. */
export function normalizeNumber(n: bigint | number): PlainNumber;
export function normalizeNumber(n: RegoNumber): RegoNumber;
export function normalizeNumber(n: RegoNumber): RegoNumber {
  if (typeof n === "bigint") {
    return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(n)
      : n;
  }
  return n;
}

/** The number as a float (may lose precision for big integers). */
export function toFloat(n: RegoNumber): number {
  return typeof n === "bigint" ? Number(n) : typeof n === "number" ? n : n.value;
}

/** The number as a bigint; only call when `isInteger(n)`. */
export function toBigInt(n: RegoNumber): bigint {
  if (typeof n === "object") return toBigInt(plainNumber(n));
  return typeof n === "bigint" ? n : BigInt(n);
}

/** Parses a JSON/Rego number literal exactly when it is an integer. */
export function parseNumber(text: string): RegoNumber | undefined {
  if (/^-?\d+$/.test(text)) {
    const f = Number(text);
    return Number.isSafeInteger(f) ? f : normalizeNumber(BigInt(text));
  }
  const f = Number(text);
  if (Number.isNaN(f) || text.trim() === "") return undefined;
  // Integers written in exponent or decimal form (1e3, 2.0) that are too big to be exact.
  if (Number.isInteger(f) && !Number.isSafeInteger(f) && /^-?\d+(\.0*)?$/.test(text)) {
    return normalizeNumber(BigInt(text.split(".")[0] as string));
  }
  return f;
}

/**
 * A Rego number literal as OPA keeps it: its text when that differs from the double's
 * shortest text (`0.00`, `1.50`, `1e3`), else the plain number.
 */
export function parseNumberLiteral(literal: string): RegoNumber | undefined {
  const text = asJsonNumber(literal);
  const n = parseNumber(text);
  if (typeof n !== "number" || /^-?\d+$/.test(text) || formatNumber(n) === text) return n;
  return new DecimalNumber(n === 0 ? 0 : n, text);
}

/**
 * A literal in the form JSON writes numbers: Rego takes `.5` and `007.5`, which OPA keeps as
 * written but JSON cannot carry, so the answer would not parse. `.5` → `0.5`, `007.5` → `7.5`.
 */
function asJsonNumber(literal: string): string {
  const m = /^(-?)(\d*)(\.\d+)?([eE][+-]?\d+)?$/.exec(literal);
  if (!m) return literal;
  const whole = (m[2] ?? "").replace(/^0+(?=\d)/, "") || "0";
  return `${m[1]}${whole}${m[3] ?? ""}${m[4] ?? ""}`;
}

/** The exact decimal a number stands for, as OPA compares numbers (by their text). */
function decimalOf(n: RegoNumber): Decimal {
  if (typeof n === "object") return n.exact;
  return parseDecimalText(typeof n === "bigint" ? n.toString() : String(n)) as Decimal;
}

/** Compares two numbers numerically: negative, zero or positive. */
export function compareNumbers(a: RegoNumber, b: RegoNumber): number {
  if (typeof a === "number" && typeof b === "number") return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === "bigint" && typeof b === "bigint") return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === "object" || typeof b === "object") {
    return compareDecimals(decimalOf(a), decimalOf(b));
  }
  // Mixed: bigint vs float. Compare as floats unless they round to the same value.
  const fa = toFloat(a);
  const fb = toFloat(b);
  if (fa !== fb) return fa < fb ? -1 : 1;
  if (isInteger(a) && isInteger(b)) {
    const ba = toBigInt(a);
    const bb = toBigInt(b);
    return ba < bb ? -1 : ba > bb ? 1 : 0;
  }
  return 0;
}

/** Formats a number as OPA prints it in JSON. */
export function formatNumber(n: RegoNumber): string {
  if (typeof n === "bigint") return n.toString();
  if (typeof n === "object") return n.text;
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return n.toFixed(0);
  return String(n);
}
