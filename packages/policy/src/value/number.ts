/**
 * Rego numbers. OPA keeps integers of any size and exact decimals; we keep the common case
 * fast: a JS `number` for every float and every integer inside the safe range, and a `bigint`
 * only for integers beyond it. Every producer must go through `normalizeNumber` so that an
 * integer in the safe range is never a bigint (map keys and equality rely on it).
 */
export type RegoNumber = number | bigint;

/** True for any Rego number. */
export function isNumber(v: unknown): v is RegoNumber {
  return typeof v === "number" || typeof v === "bigint";
}

/** True when the number has no fractional part. */
export function isInteger(n: RegoNumber): boolean {
  return typeof n === "bigint" || Number.isInteger(n);
}

/** Canonical form: safe integers as `number`, larger integers as `bigint`. */
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
  return typeof n === "bigint" ? Number(n) : n;
}

/** The number as a bigint; only call when `isInteger(n)`. */
export function toBigInt(n: RegoNumber): bigint {
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

/** Compares two numbers numerically: negative, zero or positive. */
export function compareNumbers(a: RegoNumber, b: RegoNumber): number {
  if (typeof a === "number" && typeof b === "number") return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === "bigint" && typeof b === "bigint") return a < b ? -1 : a > b ? 1 : 0;
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
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return n.toFixed(0);
  return String(n);
}
