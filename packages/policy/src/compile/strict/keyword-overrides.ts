/**
 * `input` and `data` are root documents: OPA refuses rules named after them and local
 * assignments to them (strict mode, and always for Rego v1).
 */
import type { Body, Expr, Module, Rule, Term } from "../../ast/nodes.js";
import { forEachChild } from "../../ast/walk.js";
import type { RegoError } from "../../errors.js";
import { compileError, isAssignment } from "./names.js";

const roots = new Set(["input", "data"]);

function terms(t: Term, f: (b: Body) => void): void {
  switch (t.type) {
    case "arraycompr":
    case "setcompr":
      terms(t.term, f);
      f(t.body);
      return;
    case "objectcompr":
      terms(t.key, f);
      terms(t.value, f);
      f(t.body);
      return;
    case "template":
      for (const p of t.parts) if (typeof p !== "string") f([p]);
      return;
    default:
      forEachChild(t, (c) => terms(c, f));
  }
}

/** Reports `x := …` with x `input` or `data` in a body and every body nested in it. */
function assignments(body: Body, errors: RegoError[]): void {
  const visit = (b: Body) => assignments(b, errors);
  for (const e of body) {
    if (isAssignment(e)) {
      const lhs = (e as Expr & { term: { args: Term[] } }).term.args[0] as Term;
      if (lhs.type === "var" && roots.has(lhs.name)) {
        errors.push(
          compileError(
            e.loc,
            `variables must not shadow ${lhs.name} (use a different variable name)`,
          ),
        );
      }
    }
    switch (e.type) {
      case "term":
        terms(e.term, visit);
        break;
      case "somein":
        terms(e.domain, visit);
        break;
      case "every":
        terms(e.domain, visit);
        assignments(e.body, errors);
        break;
      default:
        break;
    }
    for (const w of e.with) terms(w.value, visit);
  }
}

/** OPA's checkRootDocumentOverrides over one module. */
export function keywordOverrides(module: Module, errors: RegoError[]): void {
  const visit = (b: Body) => assignments(b, errors);
  for (const rule of module.rules) {
    const name = (rule.ref[0] as Term & { value: unknown }).value;
    if (typeof name === "string" && roots.has(name)) {
      errors.push(
        compileError(rule.loc, `rules must not shadow ${name} (use a different rule name)`),
      );
    }
    for (let r: Rule | undefined = rule; r; r = r.elseRule) {
      for (const t of r.ref.slice(1)) terms(t, visit);
      if (r.key) terms(r.key, visit);
      if (r.value) terms(r.value, visit);
      assignments(r.body, errors);
    }
  }
}
