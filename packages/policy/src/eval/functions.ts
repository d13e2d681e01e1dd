/**
 * Resolution of call names to user functions (`data.pkg.f`) or builtins, memoised per
 * compiled policy.
 */
import { lookupBuiltin } from "../builtins/registry.js";
import type { BuiltinDef } from "../builtins/registry-types.js";
import type { RuleNode } from "../compile/tree.js";

/** A call target: a user function node or a builtin. */
export type ResolvedFunction =
  | { kind: "user"; node: RuleNode }
  | { kind: "builtin"; def: BuiltinDef };

/** Memo of name → function for one compiled policy. */
export type FunctionTable = Map<string, ResolvedFunction | null>;

/** Resolves a call name, memoised in `table`. */
export function resolveFunction(
  table: FunctionTable,
  root: RuleNode,
  name: string,
): ResolvedFunction | undefined {
  const hit = table.get(name);
  if (hit !== undefined) return hit ?? undefined;
  let fn: ResolvedFunction | undefined;
  if (name.startsWith("data.")) {
    const node = root.find(name.split(".").slice(1));
    if (node?.isFunction) fn = { kind: "user", node };
  } else {
    const def = lookupBuiltin(name);
    if (def) fn = { kind: "builtin", def };
  }
  table.set(name, fn ?? null);
  return fn;
}
