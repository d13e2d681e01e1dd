/** The data path a rule defines, as METADATA annotations name their targets. */
import type { Rule, Term } from "./nodes.js";

/** The rule's package followed by its ref's leading string keys (a rule's path up to its first variable key). */
export function rulePath(rule: Rule): string[] {
  const out = [...rule.module.pkg];
  for (const t of rule.ref as Term[]) {
    if (t.type !== "scalar" || typeof t.value !== "string") break;
    out.push(t.value);
  }
  return out;
}
