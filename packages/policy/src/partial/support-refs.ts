/**
 * Refs and calls to support rules (`data.partial.<package>.<rule>`). They carry a location
 * object of their own, which copies keep, so that one is recognised after plugging and
 * rewriting: it is never evaluated at partial-evaluation time.
 */
import type { Term } from "../ast/nodes.js";
import { varTerm } from "./terms.js";

export const SUPPORT_LOC: Term["loc"] = { file: "", row: 0, col: 0, start: 0, end: 0 };

export function isSupport(t: Term): boolean {
  return t.loc === SUPPORT_LOC;
}

/** `data.<path>` as a ref. */
export function pathRef(path: readonly string[], loc: Term["loc"]): Term {
  return {
    type: "ref",
    head: varTerm("data", loc),
    path: path.map((p) => ({ type: "scalar", value: p, loc })),
    loc,
  };
}
