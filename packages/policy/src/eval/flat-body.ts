/**
 * Long bodies. Bodies are evaluated in continuation-passing style, so each condition runs
 * inside the previous one's continuation: a body of thousands of conditions would need
 * thousands of nested JS frames. Past a nesting depth, a body is evaluated with an explicit
 * stack instead: each expression's solutions (the values it binds) are collected, then tried
 * one by one, backtracking to the previous expression when the rest of the body fails.
 */
import type { Body, Expr } from "../ast/nodes.js";
import { shallowExprVars } from "../ast/walk.js";
import type { Value } from "../value/value.js";

/** Nesting of bodies past which a body runs on an explicit stack. */
export const FLAT_BODY_DEPTH = 48;

/** A continuation that stops at the first solution. */
export const stopAtFirst = (): boolean => true;

/**
 * Each expression's own vars, collected on first use. Shared by all queries: expressions
 * belong to compiled policies and are never changed, and the map holds them weakly.
 */
const exprVars = new WeakMap<Expr, readonly string[]>();

function varsOf(e: Expr): readonly string[] {
  let vars = exprVars.get(e);
  if (vars === undefined) {
    vars = [...shallowExprVars(e)];
    exprVars.set(e, vars);
  }
  return vars;
}

type Env = Map<string, Value>;
type EvalExpr = (e: Expr, env: Env, k: () => boolean) => boolean;

/** One expression's solutions: the values of the vars it bound, tried in order. */
interface Frame {
  vars: string[];
  solutions: (Value | undefined)[][];
  next: number;
}

/**
 * Evaluates `body[i0..]` without nesting a frame per expression. Collecting an expression's
 * solutions first differs from lazy evaluation only in work done: the continuation sees the
 * same bindings in the same order, and a `true` from it still stops everything.
 */
export function evalBodyFlat(
  body: Body,
  i0: number,
  env: Env,
  k: () => boolean,
  evalExpr: EvalExpr,
  limit: number,
  tooMany: (n: number) => Error,
): boolean {
  const stack: Frame[] = [];
  let i = i0;
  for (;;) {
    if (i < body.length) {
      stack.push(solve(body[i] as Expr, env, evalExpr, limit, tooMany));
    } else if (k()) {
      for (let f = stack.pop(); f; f = stack.pop()) unbind(f, env);
      return true;
    }
    // The next solution of the innermost expression that has one left.
    for (;;) {
      const top = stack[stack.length - 1];
      if (!top) return false;
      if (advance(top, env)) break;
      stack.pop();
    }
    i = i0 + stack.length;
  }
}

function solve(
  e: Expr,
  env: Env,
  evalExpr: EvalExpr,
  limit: number,
  tooMany: (n: number) => Error,
): Frame {
  const vars = varsOf(e).filter((v) => !env.has(v));
  const solutions: (Value | undefined)[][] = [];
  if (vars.length === 0) {
    // Binds nothing: at most one solution, and how it held does not matter.
    if (evalExpr(e, env, stopAtFirst)) solutions.push([]);
  } else {
    evalExpr(e, env, () => {
      // Collected solutions are held at once: bounded like a comprehension's elements.
      if (solutions.length >= limit) throw tooMany(solutions.length);
      solutions.push(vars.map((v) => env.get(v)));
      return false;
    });
  }
  return { vars, solutions, next: 0 };
}

/** Undoes the frame's bindings, then binds its next solution; false when none is left. */
function advance(f: Frame, env: Env): boolean {
  unbind(f, env);
  const s = f.solutions[f.next++];
  if (s === undefined) return false;
  f.vars.forEach((v, j) => {
    const x = s[j];
    if (x !== undefined) env.set(v, x);
  });
  return true;
}

function unbind(f: Frame, env: Env): void {
  for (const v of f.vars) env.delete(v);
}
