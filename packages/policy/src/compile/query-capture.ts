/**
 * Which query expression OPA reports by its value rather than by its truth. OPA rewrites a
 * query's term expressions (`false`, `1 == 2`, `data.t.x`) to capture their value; only when
 * the query is more than that one expression, or iterates, does it also require the value to
 * be true. So `false` alone answers `false`, while `false; true`, `input.xs[_]` and
 * `count(x) == 2` (whose nested call OPA splits into an expression of its own) answer
 * undefined when the value is false.
 */
import type { Body, Term, TermExpr } from "../ast/nodes.js";
import { forEachChild } from "../ast/walk.js";
import { lookupBuiltin } from "../builtins/registry.js";

/** Operators whose expression binds or prints rather than producing a value. */
const bindingOperators = new Set(["eq", "assign", "print", "internal.print"]);

/** True when a ref has a var after its head (it iterates), or a call is a relation. */
function iterates(t: Term): boolean {
  if (t.type === "ref" && t.path.some((p) => p.type === "var")) return true;
  if (t.type === "call" && lookupBuiltin(t.name)?.relation) return true;
  let found = false;
  forEachChild(t, (c) => {
    if (!found && iterates(c)) found = true;
  });
  return found;
}

/** True when a call occurs below `t` (not counting `t` itself or comprehension bodies). */
function hasNestedCall(t: Term): boolean {
  let found = false;
  forEachChild(t, (c) => {
    if (!found && (c.type === "call" || hasNestedCall(c))) found = true;
  });
  return found;
}

/**
 * The expression of `body` whose value is the query's answer even when false, or undefined
 * when the query is evaluated for truth as usual. `arity` gives a call's declared arity: a
 * call with an extra output operand (`plus(1, 2, x)`) binds rather than answers.
 */
export function capturedExpression(
  body: Body,
  arity: (name: string) => number | undefined,
): TermExpr | undefined {
  if (body.length !== 1) return undefined;
  const e = body[0];
  if (e?.type !== "term" || e.negated) return undefined;
  const t = e.term;
  if (t.type === "call") {
    if (bindingOperators.has(t.name) || t.args.length !== arity(t.name)) return undefined;
  }
  if (iterates(t) || hasNestedCall(t)) return undefined;
  if (e.with.some((w) => w.value.type === "call" || hasNestedCall(w.value))) return undefined;
  return e;
}
