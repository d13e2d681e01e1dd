/**
 * Value operations the evaluator needs: indexing, iteration in OPA's order, constant terms,
 * and copy-on-write updates of nested objects (for `with`).
 */
import type { Term } from "../ast/nodes.js";
import { RegoObject, RegoSet, type Value } from "../value/value.js";

/** `v[key]`: array element, object value or set member; undefined when absent. */
export function indexValue(v: Value, key: Value): Value | undefined {
  if (Array.isArray(v)) {
    if (typeof key !== "number" || !Number.isInteger(key) || key < 0) return undefined;
    return v[key];
  }
  if (v instanceof RegoObject) return v.get(key);
  if (v instanceof RegoSet) return v.has(key) ? key : undefined;
  return undefined;
}

/** Calls `f(key, value)` for each element, in OPA's order; stops when `f` returns true. */
export function forEachElement(v: Value, f: (key: Value, value: Value) => boolean): boolean {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (f(i, v[i] as Value)) return true;
    return false;
  }
  if (v instanceof RegoObject) {
    for (const [k, x] of v.sortedEntries()) if (f(k, x)) return true;
    return false;
  }
  if (v instanceof RegoSet) {
    for (const x of v.sorted()) if (f(x, x)) return true;
  }
  return false;
}

const constants = new WeakMap<Term, Value | null>();

/** The value of a term without vars, refs or calls; undefined when it is not constant. */
export function constantValue(t: Term): Value | undefined {
  if (t.type === "scalar") return t.value;
  if (t.type !== "array" && t.type !== "object" && t.type !== "set") return undefined;
  const cached = constants.get(t);
  if (cached !== undefined) return cached === null ? undefined : cached;
  let out: Value | undefined;
  if (t.type === "array") {
    const items = t.items.map(constantValue);
    out = items.every((x) => x !== undefined) ? (items as Value[]) : undefined;
  } else if (t.type === "set") {
    const items = t.items.map(constantValue);
    out = items.every((x) => x !== undefined) ? RegoSet.of(items as Value[]) : undefined;
  } else {
    const o = new RegoObject();
    for (const [k, x] of t.entries) {
      const kv = constantValue(k);
      const xv = constantValue(x);
      if (kv === undefined || xv === undefined) {
        constants.set(t, null);
        return undefined;
      }
      o.set(kv, xv);
    }
    out = o;
  }
  constants.set(t, out === undefined ? null : out);
  return out;
}

/** A copy of `base` with `value` at `path`, creating objects on the way. */
export function upsert(base: Value | undefined, path: readonly Value[], value: Value): Value {
  if (path.length === 0) return value;
  const [key, ...rest] = path as [Value, ...Value[]];
  const obj = base instanceof RegoObject ? base : new RegoObject();
  const copy = RegoObject.fromEntries(obj.entries());
  copy.set(key, upsert(obj.get(key), rest, value));
  return copy;
}
