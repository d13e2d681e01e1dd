/**
 * `rego deps`: the base documents (data and input read from outside) and virtual documents
 * (rules) a query depends on, as OPA's dependency analysis finds them. A query's refs, and
 * those of every rule they reach, are followed through `var = ref` joins; a ref is cut at
 * its first non-constant key; a ref that reaches rules is virtual (the rules' paths), else
 * base. Refs are listed sorted, each once, a ref under another listed one left out.
 */
import { isGround } from "../ast/ground.js";
import type { Body, Expr, Rule, Term } from "../ast/nodes.js";
import { compareTerms, termKey } from "../ast/term-order.js";
import type { CompiledPolicy } from "../compile/compiler.js";
import { descendants, type RuleNode } from "../compile/tree.js";

/** A reference as its terms: a `data`/`input` (or var) head, then the keys. */
export type Ref = Term[];

export interface Dependencies {
  base: Ref[];
  virtual: Ref[];
}

const roots = new Set(["data", "input"]);

/** The dependencies of `query` on the compiled policy. */
export function queryDependencies(policy: CompiledPolicy, query: Body): Dependencies {
  const base = new RefSet();
  const virtual = new RefSet();
  const baseSeen = new Set<Rule>();
  const virtualSeen = new Set<Rule>();
  const walk = (
    refs: Ref[],
    seen: Set<Rule>,
    onRule: (r: Rule, node: RuleNode) => void,
    onBase?: (r: Ref) => void,
  ) => {
    for (const ref of refs) {
      const prefix = constantPrefix(ref);
      const found = rulesFor(policy, prefix);
      if (found.length === 0) onBase?.(prefix);
      for (const { rule, node } of found) {
        if (seen.has(rule)) continue;
        seen.add(rule);
        onRule(rule, node);
      }
    }
  };
  const visitBase = (refs: Ref[]): void =>
    walk(
      refs,
      baseSeen,
      (rule) => visitBase(ruleRefs(rule)),
      (r) => base.add(r),
    );
  const visitVirtual = (refs: Ref[]): void =>
    walk(refs, virtualSeen, (rule, node) => {
      visitVirtual(ruleRefs(rule));
      virtual.add(rulePath(node, rule));
    });
  const refs = minimal(bodyRefs(query, undefined));
  visitBase(refs);
  visitVirtual(refs);
  return { base: base.sorted(), virtual: virtual.sorted() };
}

/** The rules a ref may read: those at a node on its path, or anywhere below it. */
function rulesFor(policy: CompiledPolicy, ref: Ref): { rule: Rule; node: RuleNode }[] {
  const head = ref[0];
  if (head?.type !== "var" || head.name !== "data") return [];
  let node: RuleNode | undefined = policy.root;
  const out: { rule: Rule; node: RuleNode }[] = [];
  const take = (n: RuleNode) => {
    for (const r of n.rules) out.push({ rule: r.rule, node: n });
    if (n.defaultRule) out.push({ rule: n.defaultRule, node: n });
  };
  for (const key of ref.slice(1)) {
    take(node);
    if (key.type !== "scalar" || typeof key.value !== "string") return out;
    node = node.children.get(key.value);
    if (!node) return out;
  }
  for (const n of descendants(node)) take(n);
  return out;
}

/** `data.<package>.<head's constant keys>` of a rule. */
function rulePath(node: RuleNode, rule: Rule): Ref {
  const loc = rule.loc;
  const path: Ref = [{ type: "var", name: "data", loc }];
  for (const key of node.path) path.push({ type: "scalar", value: key, loc });
  return path;
}

/** The refs a rule reads: body, head terms and function arguments. */
function ruleRefs(rule: Rule): Ref[] {
  const head: Term[] = [...rule.ref.slice(1), ...(rule.args ?? [])];
  if (rule.key) head.push(rule.key);
  if (rule.value) head.push(rule.value);
  return minimal(bodyRefs(rule.body, head));
}

/**
 * The data/input refs of a body (and rule head terms), refs through vars joined to the refs
 * they were unified with (`x = data.a; x.b` reads `data.a.b`). A joined ref itself counts
 * only when its var is read elsewhere, joined more than once or in the head (in a query,
 * every var counts), as OPA decides.
 */
function bodyRefs(body: Body, head: Term[] | undefined): Ref[] {
  const joins = new Map<string, Ref[]>();
  const others: Expr[] = [];
  for (const e of body) {
    const pair = varRefEquality(e);
    if (pair) joins.set(pair.name, [...(joins.get(pair.name) ?? []), pair.ref]);
    else others.push(e);
  }
  const joined = joinVars(joins);
  const out: Ref[] = [];
  const expand = (ref: Ref) => {
    const h = ref[0];
    if (h?.type !== "var") return;
    if (roots.has(h.name)) out.push(ref);
    else for (const j of joined.get(h.name) ?? []) out.push([...j, ...ref.slice(1)]);
  };
  for (const e of others) forEachRef(e, expand);
  for (const t of head ?? []) termRefs(t, expand);
  const headVars = head ? varsOf(head) : undefined;
  const used = varsOf(others.flatMap(exprTerms));
  for (const refs of joins.values())
    for (const r of refs) for (const k of r.slice(1)) varsOf([k], used);
  for (const [v, refs] of joined) {
    const counts = !headVars || headVars.has(v) || refs.length > 1 || used.has(v);
    for (const r of refs) {
      if (counts) out.push(r);
      for (const key of r.slice(1)) termRefs(key, expand);
    }
  }
  return out;
}

/** The terms of an expression, `with` modifiers included. */
function exprTerms(e: Expr): Term[] {
  const terms: Term[] = [];
  if (e.type === "term") terms.push(e.term);
  else if (e.type === "some") terms.push(...e.vars);
  else if (e.type === "somein") terms.push(...(e.key ? [e.key] : []), e.value, e.domain);
  else {
    terms.push(...(e.key ? [e.key] : []), e.value, e.domain);
    for (const x of e.body) terms.push(...exprTerms(x));
  }
  for (const w of e.with) terms.push(w.target, w.value);
  return terms;
}

/** The vars in terms, the head of a ref not counted (`x.y` reads x through the ref). */
function varsOf(terms: Term[], out: Set<string> = new Set()): Set<string> {
  const visit = (t: Term): void => {
    switch (t.type) {
      case "var":
        out.add(t.name);
        return;
      case "ref":
        if (t.head.type !== "var") visit(t.head);
        for (const p of t.path) visit(p);
        return;
      case "array":
      case "set":
        for (const x of t.items) visit(x);
        return;
      case "object":
        for (const [k, v] of t.entries) {
          visit(k);
          visit(v);
        }
        return;
      case "call":
        for (const a of t.args) visit(a);
        return;
      case "arraycompr":
      case "setcompr":
        visit(t.term);
        for (const e of t.body) for (const x of exprTerms(e)) visit(x);
        return;
      case "objectcompr":
        visit(t.key);
        visit(t.value);
        for (const e of t.body) for (const x of exprTerms(e)) visit(x);
        return;
      default:
        return;
    }
  };
  for (const t of terms) visit(t);
  return out;
}

function varRefEquality(e: Expr): { name: string; ref: Ref } | undefined {
  if (e.type !== "term" || e.negated || e.term.type !== "call" || e.term.name !== "eq")
    return undefined;
  const [l, r] = e.term.args as [Term, Term];
  if (l.type === "var" && r.type === "ref") return { name: l.name, ref: refTerms(r) };
  if (r.type === "var" && l.type === "ref") return { name: r.name, ref: refTerms(l) };
  return undefined;
}

/** Follows joins until nothing new: `y = x.b; x = data.a` gives y → data.a.b. */
function joinVars(joins: Map<string, Ref[]>): Map<string, Ref[]> {
  const joined = new Map<string, RefSet>();
  for (const v of joins.keys()) joined.set(v, new RefSet());
  for (let changed = true; changed; ) {
    changed = false;
    for (const [v, refs] of joins) {
      const into = joined.get(v) as RefSet;
      for (const r of refs) {
        const h = r[0];
        if (h?.type !== "var") continue;
        const candidates = roots.has(h.name)
          ? [r]
          : [...(joined.get(h.name)?.values() ?? [])].map((j) => [...j, ...r.slice(1)]);
        for (const c of candidates) if (into.add(c)) changed = true;
      }
    }
  }
  return new Map([...joined].map(([v, s]) => [v, s.values()]));
}

function refTerms(t: Term): Ref {
  if (t.type === "ref") return [t.head, ...t.path];
  return [t];
}

/** Every ref in an expression (nested ones too), and calls of rules as refs to them. */
function forEachRef(e: Expr, f: (r: Ref) => void): void {
  const terms: Term[] = [];
  if (e.type === "term") terms.push(e.term);
  else if (e.type === "somein") terms.push(...(e.key ? [e.key] : []), e.value, e.domain);
  else if (e.type === "every") {
    terms.push(e.domain);
    for (const x of e.body) forEachRef(x, f);
  }
  for (const w of e.with) terms.push(w.target, w.value);
  for (const t of terms) termRefs(t, f);
}

function termRefs(t: Term, f: (r: Ref) => void): void {
  switch (t.type) {
    case "var":
      if (roots.has(t.name)) f([t]);
      return;
    case "ref":
      f(refTerms(t));
      if (t.head.type !== "var") termRefs(t.head, f);
      for (const p of t.path) termRefs(p, f);
      return;
    case "array":
    case "set":
      for (const x of t.items) termRefs(x, f);
      return;
    case "object":
      for (const [k, v] of t.entries) {
        termRefs(k, f);
        termRefs(v, f);
      }
      return;
    case "arraycompr":
    case "setcompr":
      termRefs(t.term, f);
      for (const e of t.body) forEachRef(e, f);
      return;
    case "objectcompr":
      termRefs(t.key, f);
      termRefs(t.value, f);
      for (const e of t.body) forEachRef(e, f);
      return;
    case "call":
      if (t.name.startsWith("data.")) f(dottedRef(t.name, t.loc));
      for (const a of t.args) termRefs(a, f);
      return;
    case "template":
      for (const p of t.parts) if (typeof p !== "string") forEachRef(p, f);
      return;
    case "scalar":
      return;
  }
}

function dottedRef(name: string, loc: Term["loc"]): Ref {
  const [head, ...rest] = name.split(".");
  return [
    { type: "var", name: head ?? name, loc },
    ...rest.map((value) => ({ type: "scalar" as const, value, loc })),
  ];
}

/** The leading keys of a ref that are constants (a var or a computed key ends it). */
function constantPrefix(ref: Ref): Ref {
  let i = 1;
  while (i < ref.length && isGround(ref[i] as Term)) i++;
  return ref.slice(0, i);
}

/** Sorted and without a ref that has an earlier one as its prefix. */
function minimal(refs: Ref[]): Ref[] {
  const sorted = new RefSet();
  for (const r of refs) sorted.add(r);
  const out: Ref[] = [];
  for (const r of sorted.sorted()) {
    const last = out.at(-1);
    if (last && hasPrefix(r, last)) continue;
    out.push(r);
  }
  return out;
}

function hasPrefix(ref: Ref, prefix: Ref): boolean {
  return (
    prefix.length <= ref.length && prefix.every((t, i) => termKey(t) === termKey(ref[i] as Term))
  );
}

/** Refs kept once each (by their text) and listed in OPA's term order. */
class RefSet {
  private readonly byKey = new Map<string, Ref>();

  add(r: Ref): boolean {
    const k = r.map(termKey).join("\u0000");
    if (this.byKey.has(k)) return false;
    this.byKey.set(k, r);
    return true;
  }

  values(): Ref[] {
    return [...this.byKey.values()];
  }

  sorted(): Ref[] {
    return this.values().sort(compareRefs);
  }
}

function compareRefs(a: Ref, b: Ref): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const c = compareTerms(a[i] as Term, b[i] as Term);
    if (c !== 0) return c;
  }
  return a.length - b.length;
}
