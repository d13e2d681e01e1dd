/**
 * Arithmetic builtins: the operators `+ - * / %` (plus, minus, mul, div, rem), rounding,
 * `numbers.range`, `numbers.range_step` and `rand.intn`. Integers are exact at any size.
 */
import { BuiltinError, BuiltinTypeError } from "../errors.js";
import {
  DecimalNumber,
  isNumber,
  normalizeNumber,
  type PlainNumber,
  type RegoNumber,
  toBigInt,
} from "../value/number.js";
import { RegoSet, typeName, type Value } from "../value/value.js";
import { asExactNumber, asInteger, asNumber, asString, oneOfError } from "./args.js";
import { toBigFloat } from "./big-float.js";
import { floatResult } from "./float-result.js";
import { checkMemory } from "./limits.js";
import {
  absNumber,
  addNumbers,
  ceilNumber,
  divideNumbers,
  floorNumber,
  multiplyNumbers,
  remainderNumbers,
  roundNumber,
  signOf,
  subtractNumbers,
} from "./numeric.js";
import type { BuiltinContext, BuiltinDef } from "./registry-types.js";

/** A builtin of two numbers giving a number. */
function binary(
  name: string,
  op: (a: RegoNumber, b: RegoNumber, fn: string) => RegoNumber,
): BuiltinDef {
  return {
    name,
    args: ["number", "number"],
    result: "number",
    impl: ([a, b]) =>
      op(asExactNumber(name, a as Value, 1), asExactNumber(name, b as Value, 2), name),
  };
}

/** A builtin of one number giving a number. */
function unary(name: string, op: (a: PlainNumber) => PlainNumber): BuiltinDef {
  return {
    name,
    args: ["number"],
    result: "number",
    impl: ([a]) => op(asNumber(name, a as Value, 1)),
  };
}

/** `abs`: a kept-text number goes through OPA's big float, so its digits survive. */
function absValue(a: RegoNumber): RegoNumber {
  if (!(a instanceof DecimalNumber)) return absNumber(a);
  return floatResult("abs", { ...toBigFloat(a), neg: false });
}

/** Members of `a` that are not in `b`. */
function setDifference(a: RegoSet, b: RegoSet): RegoSet {
  const out = new RegoSet();
  for (const v of a) if (!b.has(v)) out.add(v);
  return out;
}

/**
 * `minus`: number difference or set difference. A bad second operand is reported as OPA
 * does: "must be set" only when the first is a set and the second a number, else "number".
 */
function minus(a: Value, b: Value): Value {
  if (isNumber(a) && isNumber(b)) return subtractNumbers(a, b);
  if (a instanceof RegoSet && b instanceof RegoSet) return setDifference(a, b);
  if (!isNumber(a) && !(a instanceof RegoSet)) throw oneOfError("minus", 1, ["number", "set"], a);
  const want = isNumber(b) ? "set" : "number";
  throw new BuiltinTypeError(`minus: operand 2 must be ${want} but got ${typeName(b)}`);
}

/** Integers from `from` to `to` inclusive, stepping by `step` (> 0) in the needed direction. */
function integerRange(
  fn: string,
  from: RegoNumber,
  to: RegoNumber,
  step: RegoNumber,
  ctx: BuiltinContext,
): Value[] {
  const a = toBigInt(from);
  const b = toBigInt(to);
  const s = toBigInt(step);
  const span = a <= b ? b - a : a - b;
  const length = span / s + 1n;
  // No count limit, as in OPA: the deadline (checked per element) and memory bound it.
  checkMemory(fn, length);
  if (typeof from === "number" && typeof to === "number" && typeof step === "number") {
    return numberRange(from, to, step, ctx);
  }
  const out: Value[] = [];
  if (a <= b)
    for (let i = a; i <= b; i += s) {
      ctx.checkCancel();
      out.push(normalizeNumber(i));
    }
  else
    for (let i = a; i >= b; i -= s) {
      ctx.checkCancel();
      out.push(normalizeNumber(i));
    }
  return out;
}

/** The same range on safe integers, without bigint arithmetic per element. */
function numberRange(from: number, to: number, step: number, ctx: BuiltinContext): number[] {
  const out: number[] = [];
  if (from <= to)
    for (let i = from; i <= to; i += step) {
      ctx.checkCancel();
      out.push(i);
    }
  else
    for (let i = from; i >= to; i -= step) {
      ctx.checkCancel();
      out.push(i);
    }
  return out;
}

/**
 * `rand.intn(str, n)`: a random integer in [0, |n|), the same for the same operands within
 * one query (OPA caches it by operands).
 */
function randIntn(args: Value[], cache: Map<string, unknown>): Value {
  const key = asString("rand.intn", args[0] as Value, 1);
  const n = absNumber(asInteger("rand.intn", args[1] as Value, 2));
  if (signOf(n) === 0) return 0;
  const cacheKey = `rand.intn\u0000${JSON.stringify(key)}\u0000${n}`;
  const cached = cache.get(cacheKey);
  if (cached !== undefined) return cached as Value;
  const result =
    typeof n === "bigint" ? normalizeNumber(randomBigBelow(n)) : Math.floor(Math.random() * n);
  cache.set(cacheKey, result);
  return result;
}

/** A uniformly random bigint in [0, n), by rejection sampling on 32-bit chunks. */
function randomBigBelow(n: bigint): bigint {
  const bits = n.toString(2).length;
  for (;;) {
    let r = 0n;
    for (let have = 0; have < bits; have += 32) {
      r = (r << 32n) | BigInt(Math.floor(Math.random() * 2 ** 32));
    }
    r &= (1n << BigInt(bits)) - 1n;
    if (r < n) return r;
  }
}

export const arithmeticBuiltins: BuiltinDef[] = [
  binary("plus", addNumbers),
  {
    name: "minus",
    args: ["number | set", "number | set"],
    result: "number | set",
    impl: ([a, b]) => minus(a as Value, b as Value),
  },
  binary("mul", multiplyNumbers),
  binary("div", divideNumbers),
  binary("rem", remainderNumbers),
  {
    name: "abs",
    args: ["number"],
    result: "number",
    impl: ([a]) => absValue(asExactNumber("abs", a as Value, 1)),
  },
  unary("round", roundNumber),
  unary("ceil", ceilNumber),
  unary("floor", floorNumber),
  {
    name: "numbers.range",
    args: ["number", "number"],
    result: "array[number]",
    impl: ([a, b], ctx) => {
      const from = asInteger("numbers.range", a as Value, 1);
      const to = asInteger("numbers.range", b as Value, 2);
      return integerRange("numbers.range", from, to, 1, ctx);
    },
  },
  {
    name: "numbers.range_step",
    args: ["number", "number", "number"],
    result: "array[number]",
    impl: ([a, b, s], ctx) => {
      const fn = "numbers.range_step";
      const from = asInteger(fn, a as Value, 1);
      const to = asInteger(fn, b as Value, 2);
      const step = asInteger(fn, s as Value, 3);
      if (signOf(step) <= 0) throw new BuiltinError(`${fn}: step must be a positive integer`);
      return integerRange(fn, from, to, step, ctx);
    },
  },
  {
    name: "rand.intn",
    args: ["string", "number"],
    result: "number",
    nondeterministic: true,
    impl: (args, ctx) => randIntn(args, ctx.cache),
  },
];
