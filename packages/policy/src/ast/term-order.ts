/** OPA's order of AST terms (sets are written in it) and a location-free term key. */
import { isNumber } from "../value/number.js";
import type { Term } from "./nodes.js";

/** A term's identity without its location: equal keys, equal terms. */
export function termKey(t: Term): string {
  return JSON.stringify(t, (k, v) =>
    k === "loc" ? undefined : typeof v === "bigint" ? `${v}` : v,
  );
}

const typeRank: Record<string, number> = {
  scalar: 0,
  var: 5,
  ref: 6,
  array: 7,
  object: 8,
  set: 9,
  arraycompr: 10,
  objectcompr: 11,
  setcompr: 12,
  call: 13,
  template: 14,
};

function scalarRank(v: unknown): number {
  if (v === null) return 0;
  if (typeof v === "boolean") return 1;
  if (isNumber(v)) return 2;
  return 3;
}

/** OPA's order of terms: null, booleans, numbers, strings, vars, refs, arrays, ... */
export function compareTerms(a: Term, b: Term): number {
  const ra = a.type === "scalar" ? scalarRank(a.value) : (typeRank[a.type] as number);
  const rb = b.type === "scalar" ? scalarRank(b.value) : (typeRank[b.type] as number);
  if (ra !== rb) return ra - rb;
  if (a.type === "scalar" && b.type === "scalar") {
    const x = a.value as string | number | boolean | bigint | null;
    const y = b.value as typeof x;
    return x === y ? 0 : (x as number) < (y as number) ? -1 : 1;
  }
  if (a.type === "var" && b.type === "var") return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  const ka = termKey(a);
  const kb = termKey(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}
