/**
 * What a `with` modifier targets: a function or builtin (replaced by a value or another
 * function) rather than a document under `input` or `data`.
 */
import type { Term } from "../ast/nodes.js";
import type { RuleNode } from "../compile/tree.js";
import { RegoObject, RegoSet } from "../value/value.js";
import type { FunctionReplacement } from "./state.js";

/** True for a function replacement, as opposed to a value. */
export function isReplacement(v: unknown): v is FunctionReplacement {
  return (
    typeof v === "object" &&
    v !== null &&
    !Array.isArray(v) &&
    !(v instanceof RegoObject) &&
    !(v instanceof RegoSet) &&
    "kind" in v
  );
}

export function refName(t: Term): string | undefined {
  if (t.type !== "ref" || t.head.type !== "var") return undefined;
  const parts = [t.head.name];
  for (const p of t.path) {
    if (p.type !== "scalar" || typeof p.value !== "string") return undefined;
    parts.push(p.value);
  }
  return parts.join(".");
}

/** The function a `with` target names (`data.x.f`, `count`, `time.now_ns`), if any. */
export function targetFunctionName(target: Term, root: RuleNode): string | undefined {
  const name = target.type === "var" ? target.name : refName(target);
  if (!name || name === "input" || name === "data" || name.startsWith("input.")) return undefined;
  if (name.startsWith("data.")) {
    const node = root.find(name.split(".").slice(1));
    return node?.isFunction ? name : undefined;
  }
  return name;
}
