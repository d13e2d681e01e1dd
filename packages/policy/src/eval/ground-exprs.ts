/**
 * Ground expressions of long bodies. Bodies are evaluated in continuation-passing style, so
 * each condition runs inside the previous one's continuation: a body of thousands of
 * conditions would need thousands of nested JS frames. Past a nesting depth, expressions
 * that bind nothing are run one after another instead, each to its first solution (an
 * expression that binds nothing has at most one, and nothing after it depends on how it held).
 */
import type { Expr } from "../ast/nodes.js";
import { shallowExprVars } from "../ast/walk.js";

/** Nesting of bodies past which ground expressions run one after another. */
export const FLAT_BODY_DEPTH = 48;

/** A continuation that stops at the first solution. */
export const stopAtFirst = (): boolean => true;

/**
 * Each expression's own vars, collected on first use. Shared by all queries: expressions
 * belong to compiled policies and are never changed, and the map holds them weakly.
 */
const exprVars = new WeakMap<Expr, readonly string[]>();

/** A term expression whose vars are all bound, without `with` or a relation (walk). */
export function isGround(e: Expr, env: ReadonlyMap<string, unknown>): boolean {
  if (e.type !== "term" || e.with.length > 0) return false;
  if (e.term.type === "call" && e.term.name === "walk") return false;
  let vars = exprVars.get(e);
  if (vars === undefined) {
    vars = [...shallowExprVars(e)];
    exprVars.set(e, vars);
  }
  for (const v of vars) if (!env.has(v) && v !== "input" && v !== "data") return false;
  return true;
}
