/**
 * Copy propagation over a residual query, as OPA does after partial evaluation: `x = t`
 * where `x` first appears there is dropped and `t` written where `x` was used
 * (`x = input.a; x > 1` becomes `input.a > 1`). Only when every later use of `x` is an
 * operand of a plain (not negated, no `with`) expression outside nested bodies: there,
 * `t` being undefined still makes the expression undefined, as the dropped `x = t` did.
 */
import type { Body, Expr, Term } from "../ast/nodes.js";
import { lookupBuiltin } from "../builtins/registry.js";
import { isNondeterministic } from "./nondeterministic.js";
import { mapExpr, shallowTerms, someShallow } from "./terms.js";
import { exprSome } from "./traversal.js";

/** The body with copies propagated; `keep` are vars that must stay (query outputs). */
export function propagateCopies(body: Body, keep: ReadonlySet<string>): Body {
  let out = body;
  for (let changed = true; changed; ) {
    changed = false;
    for (let i = 0; i < out.length; i++) {
      const next = propagateAt(out, i, keep);
      if (next) {
        out = next;
        changed = true;
        break;
      }
    }
  }
  return out;
}

function propagateAt(body: Body, i: number, keep: ReadonlySet<string>): Body | undefined {
  return substituteAt(body, i, keep) ?? dropDeadAt(body, i, keep) ?? bindingLastAt(body, i, keep);
}

/**
 * `v = <ref>` whose var is used only by negated expressions after it (an operand the
 * compiler moved out of a negation): OPA's copy propagation drops the binding, cannot write
 * the ref into a negation, and so adds the binding back at the end of the query
 * (`not startswith(v, "a"); v = input.x`). The same conjunction, in OPA's order.
 */
function bindingLastAt(body: Body, i: number, keep: ReadonlySet<string>): Body | undefined {
  const pair = unification(body[i] as Expr);
  if (!pair || i === body.length - 1) return undefined;
  const [a, b] = pair[0].type === "var" ? pair : [pair[1], pair[0]];
  if (!plainVar(a) || keep.has(a.name) || b.type !== "ref" || mentions(b, a.name)) return undefined;
  const earlier = body.slice(0, i);
  const later = body.slice(i + 1);
  if (earlier.some((x) => exprMentions(x, a.name))) return undefined;
  const uses = later.filter((x) => exprMentions(x, a.name));
  if (uses.length === 0 || !uses.every((x) => x.negated)) return undefined;
  return [...earlier, ...later, body[i] as Expr];
}

/**
 * `v = <ref>` where `v` is used nowhere else and another plain expression reads below the
 * same ref (`v = data.posts[i]; data.posts[i].author == "bob"`): that expression already
 * needs the ref to be defined, so the binding says nothing more.
 */
function dropDeadAt(body: Body, i: number, keep: ReadonlySet<string>): Body | undefined {
  const e = body[i] as Expr;
  const pair = unification(e);
  if (!pair) return undefined;
  for (const [a, b] of [pair, [pair[1], pair[0]]] as [Term, Term][]) {
    if (a.type !== "var" || keep.has(a.name) || b.type !== "ref") continue;
    const others = body.filter((_, j) => j !== i);
    if (others.some((x) => exprMentions(x, a.name))) continue;
    const prefix = termKey(b);
    const covered = others.some(
      (x) =>
        !x.negated &&
        x.with.length === 0 &&
        shallowTerms(x).some((t) =>
          someShallow(t, (r) => r.type === "ref" && r !== b && refExtends(r, b, prefix)),
        ),
    );
    if (covered) return body.filter((_, j) => j !== i);
  }
  return undefined;
}

/** True when `r` is `prefix` followed by more keys. */
function refExtends(r: Term, prefix: Term, key: string): boolean {
  if (r.type !== "ref" || prefix.type !== "ref" || r.path.length <= prefix.path.length)
    return false;
  return termKey({ ...r, path: r.path.slice(0, prefix.path.length) }) === key;
}

/** A term's structure as text, locations left out. */
function termKey(t: Term): string {
  return JSON.stringify(t, (k, v) =>
    k === "loc" ? undefined : typeof v === "bigint" ? String(v) : v,
  );
}

/** The two sides of a plain `a = b` / `a := b`. */
function unification(e: Expr): [Term, Term] | undefined {
  if (e.type !== "term" || e.negated || e.with.length > 0) return undefined;
  const t = e.term;
  if (t.type !== "call" || (t.name !== "eq" && t.name !== "assign") || t.args.length !== 2)
    return undefined;
  return [t.args[0] as Term, t.args[1] as Term];
}

function substituteAt(body: Body, i: number, keep: ReadonlySet<string>): Body | undefined {
  return sameVarsAt(body, i, keep) ?? outputAt(body, i, keep) ?? copyAt(body, i, keep);
}

/** A plain var, not a root document. */
function plainVar(t: Term): t is Extract<Term, { type: "var" }> {
  return t.type === "var" && t.name !== "input" && t.name !== "data";
}

/**
 * `a = b` of two vars: one name for both, everywhere (`input.x = [y]; y = x` becomes
 * `input.x = [x]`), the query's own var kept. Sound wherever they occur: both are bound.
 */
function sameVarsAt(body: Body, i: number, keep: ReadonlySet<string>): Body | undefined {
  const pair = unification(body[i] as Expr);
  if (!pair) return undefined;
  const [a, b] = pair;
  if (!plainVar(a) || !plainVar(b) || a.name === b.name) return undefined;
  const [from, to] = keep.has(a.name) ? [b, a] : [a, b];
  if (keep.has(from.name)) return undefined;
  return body
    .filter((_, j) => j !== i)
    .map((x) => mapExpr(x, (n) => (n === from.name ? to : undefined)));
}

/**
 * `f(a, b, v)` (a builtin's output in `v`) where `v` is used later only as a plain operand:
 * `f(a, b)` written there instead (`plus(input.x, 1, v); v > 1` becomes `input.x + 1 > 1`).
 */
function outputAt(body: Body, i: number, keep: ReadonlySet<string>): Body | undefined {
  const e = body[i] as Expr;
  if (e.type !== "term" || e.negated || e.with.length > 0 || e.term.type !== "call")
    return undefined;
  const call = e.term;
  const def = lookupBuiltin(call.name);
  if (!def || def.relation || isNondeterministic(call.name)) return undefined;
  const arity = def.args.length;
  const out = call.args[arity];
  if (call.args.length !== arity + 1 || !out || !plainVar(out) || keep.has(out.name))
    return undefined;
  const value: Term = { ...call, args: call.args.slice(0, arity) };
  if (mentions(value, out.name)) return undefined;
  const earlier = body.slice(0, i);
  const later = body.slice(i + 1);
  if (earlier.some((x) => exprMentions(x, out.name))) return undefined;
  const uses = later.filter((x) => exprMentions(x, out.name));
  if (uses.length === 0 || !uses.every((x) => shallowOnly(x, out.name))) return undefined;
  return [...earlier, ...later.map((x) => mapExpr(x, (n) => (n === out.name ? value : undefined)))];
}

function copyAt(body: Body, i: number, keep: ReadonlySet<string>): Body | undefined {
  const e = body[i] as Expr;
  if (e.type !== "term" || e.negated || e.with.length > 0) return undefined;
  const t = e.term;
  if (t.type !== "call" || (t.name !== "eq" && t.name !== "assign") || t.args.length !== 2)
    return undefined;
  for (const [a, b] of [
    [t.args[0], t.args[1]],
    [t.args[1], t.args[0]],
  ] as [Term, Term][]) {
    if (a.type !== "var" || keep.has(a.name) || a.name === "input" || a.name === "data") continue;
    if (!copyable(b) || mentions(b, a.name)) continue;
    const earlier = body.slice(0, i);
    const later = body.slice(i + 1);
    if (earlier.some((x) => exprMentions(x, a.name))) continue;
    const uses = later.filter((x) => exprMentions(x, a.name));
    if (uses.length === 0 || !uses.every((x) => shallowOnly(x, a.name))) continue;
    const swapped = later.map((x) => mapExpr(x, (n) => (n === a.name ? b : undefined)));
    return [...earlier, ...swapped];
  }
  return undefined;
}

/** Terms that read the same wherever they are written. */
function copyable(t: Term): boolean {
  return (
    t.type === "ref" ||
    t.type === "var" ||
    t.type === "scalar" ||
    t.type === "array" ||
    t.type === "object" ||
    t.type === "set"
  );
}

function mentions(t: Term, name: string): boolean {
  return exprMentions({ type: "term", term: t, negated: false, with: [], loc: t.loc }, name);
}

function exprMentions(e: Expr, name: string): boolean {
  return exprSome(e, (t) => t.type === "var" && t.name === name);
}

/** True when every use of `name` in `e` is a plain operand at the expression's level. */
function shallowOnly(e: Expr, name: string): boolean {
  if (e.negated || e.with.length > 0 || e.type !== "term") return false;
  let shallow = 0;
  for (const t of shallowTerms(e))
    someShallow(t, (x) => {
      if (x.type === "var" && x.name === name) shallow++;
      return false;
    });
  let all = 0;
  exprSome(e, (x) => {
    if (x.type === "var" && x.name === name) all++;
    return false;
  });
  return shallow === all;
}
