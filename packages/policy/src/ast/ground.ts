import type { Term } from "./nodes.js";

/** A term with no variable, ref or call anywhere in it: its value is known while parsing. */
export function isGround(t: Term): boolean {
  switch (t.type) {
    case "scalar":
      return true;
    case "array":
    case "set":
      return t.items.every(isGround);
    case "object":
      return t.entries.every(([k, v]) => isGround(k) && isGround(v));
    default:
      return false;
  }
}
