/**
 * Traversal helpers over terms: the vars a term mentions, split by the role they play in
 * safety analysis, and a generic child visitor.
 */
import type { Body, Expr, Term } from "./nodes.js";

/** Calls `f` on each direct child term of `t` (not descending into comprehension bodies). */
export function forEachChild(t: Term, f: (c: Term) => void): void {
  switch (t.type) {
    case "ref":
      f(t.head);
      for (const p of t.path) f(p);
      return;
    case "array":
    case "set":
      for (const x of t.items) f(x);
      return;
    case "object":
      for (const [k, v] of t.entries) {
        f(k);
        f(v);
      }
      return;
    case "call":
      for (const a of t.args) f(a);
      return;
    default:
      return;
  }
}

/** True when the term is a var name the compiler generated (wildcards, renamed locals). */
export function isGenerated(name: string): boolean {
  return name.startsWith("_") || name.includes("$");
}

/** The name a user wrote, for messages: strips the compiler's renaming suffix. */
export function displayName(name: string): string {
  if (name.startsWith("_$")) return "_";
  const i = name.indexOf("$");
  return i < 0 ? name : name.slice(0, i);
}

/** Every var occurring anywhere in the term, including comprehension bodies. */
export function allVars(t: Term, out: Set<string> = new Set()): Set<string> {
  switch (t.type) {
    case "var":
      out.add(t.name);
      break;
    case "arraycompr":
    case "setcompr":
      allVars(t.term, out);
      bodyVars(t.body, out);
      break;
    case "objectcompr":
      allVars(t.key, out);
      allVars(t.value, out);
      bodyVars(t.body, out);
      break;
    case "template":
      for (const p of t.parts) if (typeof p !== "string") exprVars(p, out);
      break;
    default:
      forEachChild(t, (c) => allVars(c, out));
  }
  return out;
}

/** Every var of an expression, nested bodies included. */
export function exprVars(e: Expr, out: Set<string> = new Set()): Set<string> {
  switch (e.type) {
    case "term":
      allVars(e.term, out);
      break;
    case "some":
      for (const v of e.vars) out.add(v.name);
      break;
    case "somein":
      if (e.key) allVars(e.key, out);
      allVars(e.value, out);
      allVars(e.domain, out);
      break;
    case "every":
      if (e.key) allVars(e.key, out);
      allVars(e.value, out);
      allVars(e.domain, out);
      bodyVars(e.body, out);
      break;
  }
  for (const w of e.with) {
    allVars(w.value, out);
  }
  return out;
}

/** Every var of a body, nested bodies included. */
export function bodyVars(body: Body, out: Set<string> = new Set()): Set<string> {
  for (const e of body) exprVars(e, out);
  return out;
}

/** Vars that occur at this body's own level: not inside comprehensions or `every` bodies. */
export function shallowVars(t: Term, out: Set<string>): Set<string> {
  if (t.type === "var") out.add(t.name);
  else if (t.type === "template") {
    for (const p of t.parts) if (typeof p !== "string") shallowExprVars(p, out);
  } else forEachChild(t, (c) => shallowVars(c, out));
  return out;
}

/** Vars at an expression's own level (not inside comprehensions). */
export function shallowExprVars(e: Expr, out: Set<string> = new Set()): Set<string> {
  switch (e.type) {
    case "term":
      shallowVars(e.term, out);
      break;
    case "some":
      for (const v of e.vars) out.add(v.name);
      break;
    case "somein":
    case "every":
      if (e.key) shallowVars(e.key, out);
      shallowVars(e.value, out);
      shallowVars(e.domain, out);
      break;
  }
  for (const w of e.with) shallowVars(w.value, out);
  return out;
}
