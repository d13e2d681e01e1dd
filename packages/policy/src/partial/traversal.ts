/**
 * Generic walks over terms and expressions, nested bodies included: a search (`deepSome`,
 * `exprSome`, over `exprParts`) and a rewrite of every sub-term (`mapChildren`,
 * `mapExprTerms`).
 */
import type { Body, Expr, Term } from "../ast/nodes.js";
import { joinRef } from "./terms.js";

export function hasVars(t: Term): boolean {
  return deepSome(t, (x) => x.type === "var" && x.name !== "input" && x.name !== "data");
}

/** True when `f` holds for the term or any term inside it, nested bodies included. */
export function deepSome(t: Term, f: (t: Term) => boolean): boolean {
  if (f(t)) return true;
  switch (t.type) {
    case "ref":
      return deepSome(t.head, f) || t.path.some((p) => deepSome(p, f));
    case "array":
    case "set":
      return t.items.some((x) => deepSome(x, f));
    case "object":
      return t.entries.some(([a, b]) => deepSome(a, f) || deepSome(b, f));
    case "arraycompr":
    case "setcompr":
      return deepSome(t.term, f) || t.body.some((e) => exprSome(e, f));
    case "objectcompr":
      return deepSome(t.key, f) || deepSome(t.value, f) || t.body.some((e) => exprSome(e, f));
    case "call":
      return t.args.some((a) => deepSome(a, f));
    case "template":
      return t.parts.some((p) => typeof p !== "string" && exprSome(p, f));
    default:
      return false;
  }
}

/**
 * The terms an expression holds itself (its `with` modifiers aside) and the body nested in
 * it (`every`'s; empty otherwise), for searches that treat every kind of expression alike.
 */
export function exprParts(e: Expr): { terms: Term[]; body: Body } {
  switch (e.type) {
    case "term":
      return { terms: [e.term], body: [] };
    case "some":
      return { terms: [], body: [] };
    case "somein":
    case "every": {
      const terms = e.key ? [e.key, e.value, e.domain] : [e.value, e.domain];
      return { terms, body: e.type === "every" ? e.body : [] };
    }
  }
}

export function exprSome(e: Expr, f: (t: Term) => boolean): boolean {
  if (e.with.some((w) => deepSome(w.value, f) || deepSome(w.target, f))) return true;
  const { terms, body } = exprParts(e);
  return terms.some((t) => deepSome(t, f)) || body.some((x) => exprSome(x, f));
}

/** A copy of `t` with `f` applied to each direct child (nested bodies included). */
export function mapChildren(t: Term, f: (t: Term) => Term): Term {
  switch (t.type) {
    case "ref":
      return joinRef(f(t.head), t.path.map(f), t.loc);
    case "array":
    case "set":
      return { ...t, items: t.items.map(f) };
    case "object":
      return { ...t, entries: t.entries.map(([a, b]) => [f(a), f(b)]) };
    case "arraycompr":
    case "setcompr":
      return { ...t, term: f(t.term), body: t.body.map((e) => mapExprTerms(e, f)) };
    case "objectcompr":
      return {
        ...t,
        key: f(t.key),
        value: f(t.value),
        body: t.body.map((e) => mapExprTerms(e, f)),
      };
    case "call":
      return { ...t, args: t.args.map(f) };
    default:
      return t;
  }
}

export function mapExprTerms(e: Expr, f: (t: Term) => Term): Expr {
  // Under `with`, refs mean what the replaced documents make them: left as written.
  if (e.with.length > 0) return e;
  const withs = e.with.map((w) => ({ ...w, value: f(w.value) }));
  switch (e.type) {
    case "term":
      return { ...e, with: withs, term: f(e.term) };
    case "some":
      return e;
    case "somein":
      return { ...e, with: withs, key: e.key && f(e.key), value: f(e.value), domain: f(e.domain) };
    case "every":
      return {
        ...e,
        with: withs,
        key: e.key && f(e.key),
        value: f(e.value),
        domain: f(e.domain),
        body: e.body.map((x) => mapExprTerms(x, f)),
      };
  }
}
