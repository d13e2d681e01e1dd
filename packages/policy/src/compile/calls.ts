/**
 * Call checks: every call names a builtin or a user function, with its number of operands
 * (or one more, the output operand).
 */
import type { Body, Expr, Rule, Term } from "../ast/nodes.js";
import { forEachChild } from "../ast/walk.js";
import { RegoError } from "../errors.js";
import type { ArityLookup } from "./safety.js";

function visitTerm(t: Term, f: (t: Term) => void): void {
  f(t);
  switch (t.type) {
    case "arraycompr":
    case "setcompr":
      visitTerm(t.term, f);
      visitBody(t.body, f);
      return;
    case "objectcompr":
      visitTerm(t.key, f);
      visitTerm(t.value, f);
      visitBody(t.body, f);
      return;
    case "template":
      for (const p of t.parts) if (typeof p !== "string") visitExpr(p, f);
      return;
    default:
      forEachChild(t, (c) => visitTerm(c, f));
  }
}

function visitExpr(e: Expr, f: (t: Term) => void): void {
  for (const w of e.with) visitTerm(w.value, f);
  switch (e.type) {
    case "term":
      visitTerm(e.term, f);
      return;
    case "somein":
      visitTerm(e.domain, f);
      return;
    case "every":
      visitTerm(e.domain, f);
      visitBody(e.body, f);
      return;
    default:
      return;
  }
}

export function visitBody(body: Body, f: (t: Term) => void): void {
  for (const e of body) visitExpr(e, f);
}

/** Visits every term of a rule: its bodies, head and else chain. */
export function visitRule(rule: Rule, f: (t: Term) => void): void {
  for (let r: Rule | undefined = rule; r; r = r.elseRule) {
    visitBody(r.body, f);
    for (const t of r.ref ?? []) visitTerm(t, f);
    if (r.key) visitTerm(r.key, f);
    if (r.value) visitTerm(r.value, f);
  }
}

/** Builtins that take any number of operands. */
export const variadic = new Set(["print"]);

/** Reports calls of unknown functions and calls with the wrong number of operands. */
export function checkCalls(rule: Rule, arity: ArityLookup, errors: RegoError[]): void {
  visitRule(rule, (t) => {
    if (t.type !== "call" || variadic.has(t.name)) return;
    const n = arity(t.name);
    const where = { file: t.loc.file, row: t.loc.row, col: t.loc.col };
    if (n === undefined) {
      errors.push(new RegoError("rego_type_error", `undefined function ${t.name}`, where));
    } else if (t.args.length !== n && t.args.length !== n + 1) {
      const msg =
        t.args.length < n
          ? `${t.name}: too few arguments: want ${n}, got ${t.args.length}`
          : `${t.name}: too many arguments: want ${n}, got ${t.args.length}`;
      errors.push(new RegoError("rego_type_error", msg, where));
    }
  });
}
