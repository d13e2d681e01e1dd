/** The value of a constant term (no vars, refs or calls), computed once per term. */
import { RegoObject, RegoSet, type Value } from "../value/value.js";
import type { Term } from "./nodes.js";

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
