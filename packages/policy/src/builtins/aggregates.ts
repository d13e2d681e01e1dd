/**
 * Aggregates over collections: count, sum, product, max, min, sort, the membership tests
 * behind `in` (internal.member_2/3), and the deprecated all/any (still registered so that v0
 * policies load; the compiler decides whether a module may call them).
 */
import { BuiltinTypeError } from "../errors.js";
import { isInteger, isNumber, type RegoNumber } from "../value/number.js";
import { compare, equal, RegoObject, RegoSet, typeName, type Value } from "../value/value.js";
import { oneOfError } from "./args.js";
import { addBig, multiplyBig } from "./big-float.js";
import { addNumbers, foldFloats, multiplyNumbers } from "./numeric.js";
import { childAt } from "./objects.js";
import type { BuiltinDef } from "./registry-types.js";

/** Members of an array or set operand, or OPA's "one of {…}" error. */
function members(fn: string, v: Value, kinds: string[]): Value[] {
  if (Array.isArray(v)) return v;
  if (v instanceof RegoSet) return v.sorted();
  throw oneOfError(fn, 1, kinds, v);
}

/** OPA's element error: `operand 1 must be array of numbers but got array containing string`. */
function elementError(fn: string, container: Value, got: Value, want: string): BuiltinTypeError {
  const kind = typeName(container);
  return new BuiltinTypeError(
    `${fn}: operand 1 must be ${kind} of ${want}s but got ${kind} containing ${typeName(got)}`,
  );
}

/**
 * Folds the numbers of an array or set: exactly when all are integers, otherwise on big
 * floats rounded once at the end (as OPA's sum and product do).
 */
function foldNumbers(fn: string, v: Value, start: RegoNumber, kind: "sum" | "product"): RegoNumber {
  const xs: RegoNumber[] = [];
  for (const x of members(fn, v, ["set", "array"])) {
    if (!isNumber(x)) throw elementError(fn, v, x, "number");
    xs.push(x);
  }
  if (xs.every(isInteger)) {
    const op = kind === "sum" ? addNumbers : multiplyNumbers;
    return xs.reduce<RegoNumber>((acc, x) => op(acc, x, fn), start);
  }
  return foldFloats(fn, start, xs, kind === "sum" ? addBig : multiplyBig);
}

/** Number of elements, keys, members, or Unicode code points of a string. */
function count(v: Value): number {
  if (typeof v === "string") {
    let n = 0;
    for (const _ of v) n++;
    return n;
  }
  if (Array.isArray(v)) return v.length;
  if (v instanceof RegoObject || v instanceof RegoSet) return v.size;
  throw oneOfError("count", 1, ["array", "object", "set", "string"], v);
}

/** The extreme element by OPA's ordering; undefined for an empty collection. */
function extreme(fn: string, v: Value, sign: 1 | -1): Value | undefined {
  let best: Value | undefined;
  for (const x of members(fn, v, ["set", "array"])) {
    if (best === undefined || sign * compare(x, best) > 0) best = x;
  }
  return best;
}

/** `all`/`any`: whether every/some member is exactly `true`. */
function truthOf(fn: string, v: Value, every: boolean): boolean {
  const xs = members(fn, v, ["array", "set"]);
  return every ? xs.every((x) => x === true) : xs.some((x) => x === true);
}

/** `x in coll`: a set member, or an array element or object value equal to `x`. */
function member(x: Value, coll: Value): boolean {
  if (coll instanceof RegoSet) return coll.has(x);
  if (Array.isArray(coll)) return coll.some((y) => equal(x, y));
  if (coll instanceof RegoObject) {
    for (const y of coll.values()) if (equal(x, y)) return true;
  }
  return false;
}

/** `k, v in coll`: `coll[k]` exists and equals `v` (for a set, `k` is a member equal to `v`). */
function memberWithKey(k: Value, v: Value, coll: Value): boolean {
  if (coll instanceof RegoSet) return coll.has(k) && equal(k, v);
  const found = coll instanceof RegoObject || Array.isArray(coll) ? childAt(coll, k) : undefined;
  return found !== undefined && equal(found, v);
}

const numbers = "array[number] | set[number]";
const collection = "array | set";

export const aggregatesBuiltins: BuiltinDef[] = [
  {
    name: "count",
    args: ["array | object | set | string"],
    result: "number",
    impl: ([v]) => count(v as Value),
  },
  {
    name: "sum",
    args: [numbers],
    result: "number",
    impl: ([v]) => foldNumbers("sum", v as Value, 0, "sum"),
  },
  {
    name: "product",
    args: [numbers],
    result: "number",
    impl: ([v]) => foldNumbers("product", v as Value, 1, "product"),
  },
  {
    name: "max",
    args: [collection],
    result: "any",
    impl: ([v]) => extreme("max", v as Value, 1),
  },
  {
    name: "min",
    args: [collection],
    result: "any",
    impl: ([v]) => extreme("min", v as Value, -1),
  },
  {
    name: "sort",
    args: [collection],
    result: "array",
    impl: ([v]) => {
      if (v instanceof RegoSet) return [...v.sorted()];
      return [...members("sort", v as Value, ["set", "array"])].sort(compare);
    },
  },
  {
    name: "all",
    args: [collection],
    result: "boolean",
    impl: ([v]) => truthOf("all", v as Value, true),
  },
  {
    name: "any",
    args: [collection],
    result: "boolean",
    impl: ([v]) => truthOf("any", v as Value, false),
  },
  {
    name: "internal.member_2",
    args: ["any", "any"],
    result: "boolean",
    impl: ([x, coll]) => member(x as Value, coll as Value),
  },
  {
    name: "internal.member_3",
    args: ["any", "any", "any"],
    result: "boolean",
    impl: ([k, v, coll]) => memberWithKey(k as Value, v as Value, coll as Value),
  },
];
