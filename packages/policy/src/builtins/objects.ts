/**
 * Object builtins: `object.get`, `object.keys`, `object.remove`, `object.filter`,
 * `object.union`, `object.union_n` and `object.subset`.
 */
import { BuiltinTypeError } from "../errors.js";
import { isInteger, isNumber, toFloat } from "../value/number.js";
import { equal, RegoObject, RegoSet, typeName, type Value } from "../value/value.js";
import { asArray, asObject, oneOfError } from "./args.js";
import type { BuiltinDef } from "./registry-types.js";

/** One step of a path into a composite value: object key, array index or set member. */
export function childAt(v: Value, key: Value): Value | undefined {
  if (v instanceof RegoObject) return v.get(key);
  if (Array.isArray(v)) {
    if (!isNumber(key) || !isInteger(key)) return undefined;
    const i = toFloat(key);
    return i >= 0 && i < v.length ? v[i] : undefined;
  }
  if (v instanceof RegoSet) return v.has(key) ? key : undefined;
  return undefined;
}

/** `object.get`: a key, or (for an array key) a path; the default when absent. */
function objectGet(obj: RegoObject, key: Value, fallback: Value): Value {
  if (!Array.isArray(key)) return obj.get(key) ?? fallback;
  let cur: Value | undefined = obj;
  for (const step of key) {
    cur = childAt(cur, step);
    if (cur === undefined) return fallback;
  }
  return cur;
}

/** The keys named by operand 2 of object.remove/object.filter: an array, set or object. */
function keySet(fn: string, v: Value): RegoSet {
  if (Array.isArray(v)) return RegoSet.of(v);
  if (v instanceof RegoSet) return v;
  if (v instanceof RegoObject) return RegoSet.of(v.keys());
  throw oneOfError(fn, 2, ["object", "set", "array"], v);
}

/** The entries of `obj` whose key membership in `keys` equals `keep`. */
function selectKeys(obj: RegoObject, keys: RegoSet, keep: boolean): RegoObject {
  const out = new RegoObject();
  for (const [k, v] of obj.entries()) if (keys.has(k) === keep) out.set(k, v);
  return out;
}

/** `a` overlaid by `b`; where both hold objects under one key, they merge recursively. */
export function mergeObjects(a: RegoObject, b: RegoObject): RegoObject {
  const out = RegoObject.fromEntries(a.entries());
  for (const [k, bv] of b.entries()) {
    const av = out.get(k);
    out.set(k, av instanceof RegoObject && bv instanceof RegoObject ? mergeObjects(av, bv) : bv);
  }
  return out;
}

function unionN(v: Value): RegoObject {
  const fn = "object.union_n";
  let out = new RegoObject();
  for (const x of asArray(fn, v, 1)) {
    if (!(x instanceof RegoObject)) {
      throw new BuiltinTypeError(
        `${fn}: operand 1 must be array of objects but got array containing ${typeName(x)}`,
      );
    }
    out = mergeObjects(out, x);
  }
  return out;
}

/** True when `sub` occurs as a contiguous run inside `sup`. */
function isSubArray(sup: Value[], sub: Value[]): boolean {
  if (sub.length === 0) return true;
  for (let start = 0; start + sub.length <= sup.length; start++) {
    if (sub.every((x, i) => equal(sup[start + i] as Value, x))) return true;
  }
  return false;
}

/**
 * OPA's subset relation inside objects: objects recursively by key, sets by membership,
 * arrays as a contiguous run; any other pair by equality.
 */
function isSubset(sup: Value, sub: Value): boolean {
  if (equal(sup, sub)) return true;
  if (sup instanceof RegoObject && sub instanceof RegoObject) {
    for (const [k, v] of sub.entries()) {
      const sv = sup.get(k);
      if (sv === undefined || !isSubset(sv, v)) return false;
    }
    return true;
  }
  if (sup instanceof RegoSet && sub instanceof RegoSet) {
    for (const v of sub) if (!sup.has(v)) return false;
    return true;
  }
  if (Array.isArray(sup) && Array.isArray(sub)) return isSubArray(sup, sub);
  return false;
}

/**
 * A set inside an array, as OPA counts it: each array element found in the set counts once
 * toward the set's size (so repeated elements count again), and an empty array never holds.
 */
function arrayHoldsSet(sup: Value[], sub: RegoSet): boolean {
  let unmatched = sub.size;
  for (const x of sup) {
    if (sub.has(x)) unmatched--;
    if (unmatched === 0) return true;
  }
  return false;
}

function objectSubset(sup: Value, sub: Value): boolean {
  if (Array.isArray(sup) && sub instanceof RegoSet) return arrayHoldsSet(sup, sub);
  const sameKind =
    (sup instanceof RegoObject && sub instanceof RegoObject) ||
    (sup instanceof RegoSet && sub instanceof RegoSet) ||
    (Array.isArray(sup) && Array.isArray(sub));
  if (!sameKind) {
    throw new BuiltinTypeError(
      "object.subset: both arguments object.subset must be of the same type or array and set",
    );
  }
  return isSubset(sup, sub);
}

const keysOperand = "array | set | object";
const collection = "object | set | array";

export const objectsBuiltins: BuiltinDef[] = [
  {
    name: "object.get",
    args: ["object", "any", "any"],
    result: "any",
    impl: ([o, k, d]) => objectGet(asObject("object.get", o as Value, 1), k as Value, d as Value),
  },
  {
    name: "object.keys",
    args: ["object"],
    result: "set",
    impl: ([o]) => RegoSet.of(asObject("object.keys", o as Value, 1).keys()),
  },
  {
    name: "object.remove",
    args: ["object", keysOperand],
    result: "object",
    impl: ([o, ks]) => {
      const obj = asObject("object.remove", o as Value, 1);
      return selectKeys(obj, keySet("object.remove", ks as Value), false);
    },
  },
  {
    name: "object.filter",
    args: ["object", keysOperand],
    result: "object",
    impl: ([o, ks]) => {
      const obj = asObject("object.filter", o as Value, 1);
      return selectKeys(obj, keySet("object.filter", ks as Value), true);
    },
  },
  {
    name: "object.union",
    args: ["object", "object"],
    result: "object",
    impl: ([a, b]) =>
      mergeObjects(
        asObject("object.union", a as Value, 1),
        asObject("object.union", b as Value, 2),
      ),
  },
  {
    name: "object.union_n",
    args: ["array[object]"],
    result: "object",
    impl: ([v]) => unionN(v as Value),
  },
  {
    name: "object.subset",
    args: [collection, collection],
    result: "boolean",
    impl: ([a, b]) => objectSubset(a as Value, b as Value),
  },
];
