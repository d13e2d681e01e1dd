/**
 * Value operations the evaluator needs: indexing, iteration in OPA's order and copy-on-write
 * updates of nested objects (for `with`).
 */
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

/** A copy of `base` with `value` at `path`, creating objects on the way. */
export function upsert(base: Value | undefined, path: readonly Value[], value: Value): Value {
  if (path.length === 0) return value;
  const [key, ...rest] = path as [Value, ...Value[]];
  const obj = base instanceof RegoObject ? base : new RegoObject();
  const copy = RegoObject.fromEntries(obj.entries());
  copy.set(key, upsert(obj.get(key), rest, value));
  return copy;
}
