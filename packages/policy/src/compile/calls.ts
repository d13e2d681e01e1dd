/**
 * Call checks: every call names a builtin or a user function, with its number of operands
 * (or one more, the output operand).
 */
import type { Body, Expr, Rule, Term } from "../ast/nodes.js";
import { forEachChild } from "../ast/walk.js";
import { RegoError } from "../errors.js";
import type { ArityLookup } from "./safety.js";

/** Callbacks of a walk: every term, and every expression (nested bodies included). */
export interface Visitor {
  term?: (t: Term) => void;
  expr?: (e: Expr) => void;
}

// Each node is visited once: a nested body is walked only from its own comprehension, so
// the work stays linear in the size of the rule however deep the nesting.
function visitTerm(t: Term, v: Visitor): void {
  v.term?.(t);
  switch (t.type) {
    case "arraycompr":
    case "setcompr":
      visitTerm(t.term, v);
      visitBody(t.body, v);
      return;
    case "objectcompr":
      visitTerm(t.key, v);
      visitTerm(t.value, v);
      visitBody(t.body, v);
      return;
    case "template":
      for (const p of t.parts) if (typeof p !== "string") visitExpr(p, v);
      return;
    default:
      forEachChild(t, (c) => visitTerm(c, v));
  }
}

export function visitExpr(e: Expr, v: Visitor): void {
  v.expr?.(e);
  for (const w of e.with) visitTerm(w.value, v);
  switch (e.type) {
    case "term":
      visitTerm(e.term, v);
      return;
    case "somein":
      visitTerm(e.domain, v);
      return;
    case "every":
      visitTerm(e.domain, v);
      visitBody(e.body, v);
      return;
    default:
      return;
  }
}

/** Visits every expression and term of a body, nested bodies included. */
export function visitBody(body: Body, v: Visitor): void {
  for (const e of body) visitExpr(e, v);
}

/** Visits every term (and expression) of a rule: its bodies, head and else chain. */
export function visitRule(rule: Rule, visitor: Visitor | ((t: Term) => void)): void {
  const v = typeof visitor === "function" ? { term: visitor } : visitor;
  for (let r: Rule | undefined = rule; r; r = r.elseRule) {
    visitBody(r.body, v);
    for (const t of r.ref ?? []) visitTerm(t, v);
    if (r.key) visitTerm(r.key, v);
    if (r.value) visitTerm(r.value, v);
  }
}

/** Builtins that take any number of operands. */
export const variadic = new Set(["print"]);

/**
 * Reports calls of unknown functions and calls with the wrong number of operands. Only a
 * call that is a whole expression may name its output as one more operand
 * (`count(x, 2)`); nested in a term (`y := count(x, 2)`) OPA makes it a call with two
 * outputs, too many arguments.
 */
export function checkCalls(rule: Rule, arity: ArityLookup, errors: RegoError[]): void {
  const statements = new Set<Term>();
  const term = (t: Term) => {
    if (t.type !== "call" || variadic.has(t.name)) return;
    const n = arity(t.name);
    const where = { file: t.loc.file, row: t.loc.row, col: t.loc.col };
    if (n === undefined) {
      errors.push(new RegoError("rego_type_error", `undefined function ${t.name}`, where));
      return;
    }
    const most = statements.has(t) ? n + 1 : n;
    if (t.args.length < n || t.args.length > most) {
      const msg =
        t.args.length < n
          ? `${t.name}: too few arguments: want ${n}, got ${t.args.length}`
          : `${t.name}: too many arguments: want ${n}, got ${t.args.length}`;
      errors.push(new RegoError("rego_type_error", msg, where));
    }
  };
  const expr = (e: Expr) => {
    if (e.type === "term") statements.add(e.term);
  };
  visitRule(rule, { term, expr });
}

/** The dotted name of a `with` target made of a var and string keys. */
function targetName(t: Term): string | undefined {
  if (t.type === "var") return t.name;
  if (t.type !== "ref" || t.head.type !== "var") return undefined;
  const parts = [t.head.name];
  for (const p of t.path) {
    if (p.type !== "scalar" || typeof p.value !== "string") return t.head.name;
    parts.push(p.value);
  }
  return parts.join(".");
}

/** Reports `with` targets that are neither input, data, nor a function or builtin. */
export function checkWithTargets(rule: Rule, arity: ArityLookup, errors: RegoError[]): void {
  const check = (e: Expr) => {
    for (const w of e.with) {
      const name = targetName(w.target);
      const head = name?.split(".")[0];
      if (head === "input" || head === "data" || (name && arity(name) !== undefined)) continue;
      errors.push(
        new RegoError(
          "rego_compile_error",
          "with keyword target must reference existing input, data, or a function",
          { file: w.loc.file, row: w.loc.row, col: w.loc.col },
        ),
      );
    }
  };
  visitRule(rule, { expr: check });
}
