/**
 * Rego arithmetic on `RegoNumber`s, as OPA computes it. Integers stay exact at any size
 * (bigint beyond the safe range); as soon as a float is involved the operation runs on OPA's
 * 64-bit-mantissa big floats (big-float.ts) and the result is OPA's number text for it
 * (float-result.ts). Every result goes
 * through `normalizeNumber` so that safe integers are never bigints.
 */
import { BuiltinError } from "../errors.js";
import {
  isInteger,
  normalizeNumber,
  type PlainNumber,
  type RegoNumber,
  toBigInt,
} from "../value/number.js";
import {
  addBig,
  type BigFloat,
  bigFloatToInteger,
  divideBig,
  multiplyBig,
  negateBig,
  toBigFloat,
} from "./big-float.js";
import { floatResult } from "./float-result.js";

/** Applies a big-float operation to two numbers, giving OPA's result. */
function floatOp(
  fn: string,
  a: RegoNumber,
  b: RegoNumber,
  op: (x: BigFloat, y: BigFloat) => BigFloat,
): RegoNumber {
  return floatResult(fn, op(toBigFloat(a), toBigFloat(b)));
}

/**
 * Folds numbers with `op` the way OPA's sum and product do when a float is present: the
 * running value stays a big float and is rounded to a double once, at the end.
 */
export function foldFloats(
  fn: string,
  start: RegoNumber,
  xs: RegoNumber[],
  op: (x: BigFloat, y: BigFloat) => BigFloat,
): RegoNumber {
  let acc = toBigFloat(start);
  for (const x of xs) acc = op(acc, toBigFloat(x));
  return floatResult(fn, acc);
}

/**
 * An integer operand as OPA holds it. Doubles beyond the safe range stand for the decimal
 * literal they print as (3.06061e+20 is 306061000000000000000, not the double's binary value),
 * read at 64 bits as OPA's big.Float reads it.
 */
function exactInteger(n: RegoNumber): bigint {
  if (typeof n === "bigint") return n;
  if (typeof n === "object") return toBigInt(n);
  if (Number.isSafeInteger(n)) return BigInt(n);
  return bigFloatToInteger(toBigFloat(n));
}

/** Applies an integer operation exactly: fast path on safe numbers, bigint otherwise. */
function integerOp(
  a: RegoNumber,
  b: RegoNumber,
  fast: (x: number, y: number) => number,
  big: (x: bigint, y: bigint) => bigint,
): RegoNumber {
  if (typeof a === "number" && typeof b === "number") {
    const r = fast(a, b);
    if (Number.isSafeInteger(r)) return r || 0; // 0 * -1 is -0 in JS, 0 in Rego
  }
  return normalizeNumber(big(exactInteger(a), exactInteger(b)));
}

/** `a + b`, exact for integers. */
export function addNumbers(a: RegoNumber, b: RegoNumber, fn = "plus"): RegoNumber {
  if (isInteger(a) && isInteger(b)) {
    return integerOp(
      a,
      b,
      (x, y) => x + y,
      (x, y) => x + y,
    );
  }
  return floatOp(fn, a, b, addBig);
}

/** `a - b`, exact for integers. */
export function subtractNumbers(a: RegoNumber, b: RegoNumber, fn = "minus"): RegoNumber {
  if (isInteger(a) && isInteger(b)) {
    return integerOp(
      a,
      b,
      (x, y) => x - y,
      (x, y) => x - y,
    );
  }
  return floatOp(fn, a, b, (x, y) => addBig(x, negateBig(y)));
}

/** `a * b`, exact for integers. */
export function multiplyNumbers(a: RegoNumber, b: RegoNumber, fn = "mul"): RegoNumber {
  if (isInteger(a) && isInteger(b)) {
    return integerOp(
      a,
      b,
      (x, y) => x * y,
      (x, y) => x * y,
    );
  }
  return floatOp(fn, a, b, multiplyBig);
}

function isZero(n: RegoNumber): boolean {
  if (typeof n === "object") return n.exact.digits === 0n;
  return typeof n === "bigint" ? n === 0n : n === 0;
}

/**
 * `a / b`. Integers that divide evenly give an exact integer (big ones included); anything
 * else is a float quotient. Division by zero is OPA's "divide by zero".
 */
export function divideNumbers(a: RegoNumber, b: RegoNumber, fn = "div"): RegoNumber {
  if (isZero(b)) throw new BuiltinError(`${fn}: divide by zero`);
  if (typeof a === "number" && typeof b === "number" && isInteger(a) && isInteger(b)) {
    if (a % b === 0 && Number.isSafeInteger(a)) return a / b || 0;
  }
  if (isInteger(a) && isInteger(b) && (typeof a === "bigint" || typeof b === "bigint")) {
    const x = exactInteger(a);
    const y = exactInteger(b);
    if (x % y === 0n) return normalizeNumber(x / y);
  }
  return floatOp(fn, a, b, divideBig);
}

/**
 * `a % b` on integers only, with the dividend's sign (truncated division, as Go's big.Int Rem).
 * Floats are refused with OPA's "modulo on floating-point number".
 */
export function remainderNumbers(a: RegoNumber, b: RegoNumber, fn = "rem"): RegoNumber {
  if (!isInteger(a) || !isInteger(b)) {
    throw new BuiltinError(`${fn}: modulo on floating-point number`);
  }
  if (isZero(b)) throw new BuiltinError(`${fn}: modulo by zero`);
  if (typeof a === "number" && typeof b === "number") return a % b || 0;
  return normalizeNumber(exactInteger(a) % exactInteger(b));
}

/** `|a|`. */
export function absNumber(a: PlainNumber): PlainNumber {
  if (typeof a === "bigint") return a < 0n ? normalizeNumber(-a) : a;
  return Math.abs(a);
}

/** Applies a float rounding function; integers (of any size) are already rounded. */
function roundWith(a: PlainNumber, f: (x: number) => number): PlainNumber {
  if (isInteger(a)) return a;
  const r = f(a as number);
  // -0 prints as 0 in OPA; keep the value canonical.
  return r === 0 ? 0 : r;
}

/** Nearest integer, halves away from zero (Go's math.Round, which OPA uses). */
export function roundNumber(a: PlainNumber): PlainNumber {
  return roundWith(a, (x) => Math.sign(x) * Math.round(Math.abs(x)));
}

/** Smallest integer not below `a`. */
export function ceilNumber(a: PlainNumber): PlainNumber {
  return roundWith(a, Math.ceil);
}

/** Largest integer not above `a`. */
export function floorNumber(a: PlainNumber): PlainNumber {
  return roundWith(a, Math.floor);
}

/** Sign of a number: -1, 0 or 1. */
export function signOf(n: PlainNumber): number {
  if (typeof n === "bigint") return n < 0n ? -1 : n > 0n ? 1 : 0;
  return Math.sign(n);
}
