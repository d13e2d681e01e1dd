/**
 * Term building and rewriting for partial evaluation: values as constant terms, and deep
 * copies of terms, expressions and bodies with some vars replaced (renaming an inlined rule's
 * locals, plugging in the values of bound vars). Operators (`CallTerm.op`) are names, never
 * vars of the body, and are left alone.
 */
import type { Body, Expr, Loc, Term, VarTerm, WithModifier } from "../ast/nodes.js";
import { lookupBuiltin } from "../builtins/registry.js";
import { RegoObject, RegoSet, type Value } from "../value/value.js";

/** The location of terms that partial evaluation makes up. */
export const NO_LOC: Loc = { file: "", row: 0, col: 0, start: 0, end: 0 };

/** A value written as a constant term (objects and sets in their sorted order). */
export function valueTerm(v: Value, loc: Loc = NO_LOC): Term {
  if (Array.isArray(v)) return { type: "array", items: v.map((x) => valueTerm(x, loc)), loc };
  if (v instanceof RegoObject)
    return {
      type: "object",
      entries: v.sortedEntries().map(([k, x]) => [valueTerm(k, loc), valueTerm(x, loc)]),
      loc,
    };
  if (v instanceof RegoSet)
    return { type: "set", items: v.sorted().map((x) => valueTerm(x, loc)), loc };
  return { type: "scalar", value: v, loc };
}

export function varTerm(name: string, loc: Loc = NO_LOC): VarTerm {
  return { type: "var", name, loc };
}

/** `a = b` as an expression (unification). */
export function eqExpr(a: Term, b: Term, loc: Loc = NO_LOC): Expr {
  return {
    type: "term",
    negated: false,
    with: [],
    loc,
    term: { type: "call", name: "eq", op: varTerm("eq", loc), args: [a, b], loc },
  };
}

/** What replaces a var: a term, or undefined to keep it. */
export type VarMap = (name: string) => Term | undefined;

/** A copy of `t` with vars replaced by `f`; `input` and `data` are never replaced. */
export function mapTerm(t: Term, f: VarMap): Term {
  switch (t.type) {
    case "scalar":
      return t;
    case "var":
      if (t.name === "input" || t.name === "data") return t;
      return f(t.name) ?? t;
    case "ref":
      return joinRef(
        mapTerm(t.head, f),
        t.path.map((p) => mapTerm(p, f)),
        t.loc,
      );
    case "array":
      return { ...t, items: t.items.map((x) => mapTerm(x, f)) };
    case "set":
      return { ...t, items: t.items.map((x) => mapTerm(x, f)) };
    case "object":
      return { ...t, entries: t.entries.map(([k, v]) => [mapTerm(k, f), mapTerm(v, f)]) };
    case "arraycompr":
    case "setcompr":
      return { ...t, term: mapTerm(t.term, f), body: mapBody(t.body, f) };
    case "objectcompr":
      return { ...t, key: mapTerm(t.key, f), value: mapTerm(t.value, f), body: mapBody(t.body, f) };
    case "call":
      return { ...t, args: t.args.map((a) => mapTerm(a, f)) };
    case "template":
      return { ...t, parts: t.parts.map((p) => (typeof p === "string" ? p : mapExpr(p, f))) };
  }
}

/**
 * `head.path...`: a ref whose head became a ref (a var replaced by `input.x`) is flattened
 * into one ref, as it would have been written.
 */
export function joinRef(head: Term, path: Term[], loc: Loc): Term {
  // `[input.x][0]` is `input.x`: a literal's element taken where the key is constant.
  while (path.length > 0) {
    const element = literalElement(head, path[0] as Term);
    if (!element) break;
    head = element;
    path = path.slice(1);
  }
  if (path.length === 0) return head;
  if (head.type === "ref")
    return { type: "ref", head: head.head, path: [...head.path, ...path], loc };
  return { type: "ref", head, path, loc };
}

/** The element of an array or object literal at a constant key; undefined if not found. */
function literalElement(head: Term, key: Term): Term | undefined {
  if (key.type !== "scalar") return undefined;
  if (head.type === "array") {
    const i = key.value;
    return typeof i === "number" && Number.isInteger(i) && i >= 0 ? head.items[i] : undefined;
  }
  if (head.type === "object") {
    const hit = head.entries.find(([k]) => k.type === "scalar" && k.value === key.value);
    return hit?.[1];
  }
  return undefined;
}

function mapWith(w: WithModifier, f: VarMap): WithModifier {
  // `with time.now_ns as opa.runtime`: a builtin's name, not a var of the body.
  if (dottedName(w.value) !== undefined && lookupBuiltin(dottedName(w.value) as string)) return w;
  return { ...w, value: mapTerm(w.value, f) };
}

/** `a.b.c` for a var or a ref of string keys; undefined otherwise. */
function dottedName(t: Term): string | undefined {
  if (t.type === "var") return t.name;
  if (t.type !== "ref" || t.head.type !== "var") return undefined;
  const keys = t.path.map((p) =>
    p.type === "scalar" && typeof p.value === "string" ? p.value : undefined,
  );
  return keys.every((k) => k !== undefined) ? [t.head.name, ...keys].join(".") : undefined;
}

/** A copy of an expression with vars replaced; `some` declarations are renamed or dropped. */
export function mapExpr(e: Expr, f: VarMap): Expr {
  const withs = e.with.map((w) => mapWith(w, f));
  switch (e.type) {
    case "term":
      return { ...e, with: withs, term: mapTerm(e.term, f) };
    case "some": {
      const vars = e.vars.map((v) => f(v.name) ?? v).filter((v): v is VarTerm => v.type === "var");
      return { ...e, with: withs, vars };
    }
    case "somein":
    case "every": {
      const key = e.key ? mapTerm(e.key, f) : undefined;
      const value = mapTerm(e.value, f);
      const domain = mapTerm(e.domain, f);
      if (e.type === "somein") return { ...e, with: withs, key, value, domain };
      return { ...e, with: withs, key, value, domain, body: mapBody(e.body, f) };
    }
  }
}

export function mapBody(body: Body, f: VarMap): Body {
  return body.map((e) => mapExpr(e, f));
}

/** A copy of `t` with the term object `from` (by identity) replaced by `to`. */
export function replaceTerm(t: Term, from: Term, to: Term): Term {
  if (t === from) return to;
  switch (t.type) {
    case "ref":
      return joinRef(
        replaceTerm(t.head, from, to),
        t.path.map((p) => replaceTerm(p, from, to)),
        t.loc,
      );
    case "array":
    case "set":
      return { ...t, items: t.items.map((x) => replaceTerm(x, from, to)) };
    case "object":
      return {
        ...t,
        entries: t.entries.map(([k, v]) => [replaceTerm(k, from, to), replaceTerm(v, from, to)]),
      };
    case "call":
      return { ...t, args: t.args.map((a) => replaceTerm(a, from, to)) };
    default:
      return t;
  }
}

/** `replaceTerm` over an expression's own operands (not nested bodies). */
export function replaceInExpr(e: Expr, from: Term, to: Term): Expr {
  switch (e.type) {
    case "term":
      return { ...e, term: replaceTerm(e.term, from, to) };
    case "somein":
      return {
        ...e,
        key: e.key ? replaceTerm(e.key, from, to) : undefined,
        value: replaceTerm(e.value, from, to),
        domain: replaceTerm(e.domain, from, to),
      };
    case "every":
      return { ...e, domain: replaceTerm(e.domain, from, to) };
    default:
      return e;
  }
}

/** The operands of an expression at its own level (not nested bodies). */
export function shallowTerms(e: Expr): Term[] {
  switch (e.type) {
    case "term":
      return [e.term];
    case "somein":
      return e.key ? [e.key, e.value, e.domain] : [e.value, e.domain];
    case "every":
      return [e.domain];
    default:
      return [];
  }
}

/**
 * Visits `t` and its sub-terms at the same level, outermost first; comprehensions are
 * visited but not entered. Stops when `f` returns true.
 */
export function someShallow(t: Term, f: (t: Term) => boolean): boolean {
  if (f(t)) return true;
  switch (t.type) {
    case "ref":
      return someShallow(t.head, f) || t.path.some((p) => someShallow(p, f));
    case "array":
    case "set":
      return t.items.some((x) => someShallow(x, f));
    case "object":
      return t.entries.some(([k, v]) => someShallow(k, f) || someShallow(v, f));
    case "call":
      return t.args.some((a) => someShallow(a, f));
    default:
      return false;
  }
}
