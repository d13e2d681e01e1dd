/**
 * Safety: every var must be bound by some expression before any expression that needs its
 * value. Bodies are reordered (stable, OPA's greedy passes) so that evaluation left to right
 * is safe; what cannot be ordered is reported as `rego_unsafe_var_error`.
 */
import type { Body, Expr, Loc, Term } from "../ast/nodes.js";
import {
  allVars,
  bodyVars,
  displayName,
  exprVars,
  forEachChild,
  shallowExprVars,
} from "../ast/walk.js";
import { RegoError } from "../errors.js";
import { orderLiterals } from "./body-order.js";

/** Arity of a function or builtin, for calls written with an extra output argument. */
export type ArityLookup = (name: string) => number | undefined;

const globals = new Set(["input", "data"]);

/** Orders bodies for safety and reports unsafe vars. */
export class SafetyChecker {
  /**
   * `counter`: numbers fresh vars for head terms moved into their bodies (see
   * checkBodyAndHead); without it heads stay where they are.
   */
  constructor(
    private readonly arity: ArityLookup,
    readonly errors: RegoError[],
    private readonly counter?: { n: number },
  ) {}

  /**
   * Orders `body` and checks the head terms that use it; returns the head terms to keep.
   * OPA evaluates a head that needs evaluation (a ref, call or comprehension) as the last
   * literal of the body (RewriteComprehensionTerms, RewriteRefsInHead), so the refs of the
   * head bind vars too: `[xs[i] | not f(xs[i])]` is safe. Here a head moves into its body,
   * as `__localN__ = <head>`, only when the body or head is unsafe as written; the answers
   * are the same either way, and traces and residuals keep their usual shape.
   */
  checkBodyAndHead(
    body: Body,
    heads: Term[],
    bound: Set<string>,
    loc: Loc,
    /** Head terms checked the same way but never moved (a rule's ref). */
    fixed: Term[] = [],
  ): Term[] {
    const mark = this.errors.length;
    const after = this.checkBody(body, bound);
    for (const t of [...fixed, ...heads]) this.checkHeadTerm(t, after, loc);
    if (this.errors.length === mark || !this.counter || !heads.some(needsEval)) return heads;
    this.errors.length = mark;
    const moved = heads.map((t) => (needsEval(t) ? this.moveToBody(t, body) : t));
    const again = this.checkBody(body, bound);
    for (const t of [...fixed, ...moved]) this.checkHeadTerm(t, again, loc);
    return moved;
  }

  /**
   * Moves head term `t` into `body`: each call in it first becomes `__localN__ = call(...)`
   * of its own (OPA's RewriteExprTerms does so for comprehension heads), then what still
   * needs evaluation becomes `__localN__ = t`. Returns the term the head keeps.
   */
  private moveToBody(t: Term, body: Body): Term {
    const rest = this.expandCalls(t, body);
    return needsEval(rest) ? this.bindInBody(rest, body) : rest;
  }

  /** `t` with each call (operands first) replaced by a var bound in `body`. */
  private expandCalls(t: Term, body: Body): Term {
    switch (t.type) {
      case "call":
        t.args = t.args.map((a) => this.expandCalls(a, body));
        return this.bindInBody(t, body);
      case "ref":
        t.head = this.expandCalls(t.head, body);
        t.path = t.path.map((p) => this.expandCalls(p, body));
        return t;
      case "array":
      case "set":
        t.items = t.items.map((x) => this.expandCalls(x, body));
        return t;
      case "object":
        t.entries = t.entries.map(([k, v]) => [
          this.expandCalls(k, body),
          this.expandCalls(v, body),
        ]);
        return t;
      default:
        return t;
    }
  }

  /** Appends `__localN__ = t` to `body`; returns the new var. */
  private bindInBody(t: Term, body: Body): Term {
    const n = (this.counter as { n: number }).n++;
    // The `$` keeps the name apart from any var a user can write; it reads `__localN__`.
    const v: Term = { type: "var", name: `__local${n}__$`, loc: t.loc };
    const op: Term = { type: "var", name: "eq", loc: t.loc };
    const term: Term = { type: "call", name: "eq", op, args: [v, t], loc: t.loc };
    body.push({ type: "term", term, negated: false, with: [], loc: t.loc, generated: true });
    return v;
  }

  /** Reorders `body` in place given vars bound on entry; returns the vars bound after it. */
  checkBody(body: Body, bound: Set<string>): Set<string> {
    const outer = new Set(bound);
    for (const e of body) shallowExprVars(e, outer);
    const b = new Set(bound);
    const tryLiteral = (i: number) => {
      const e = body[i] as Expr;
      const missing = new Set<string>();
      const outputs = this.exprNeeds(e, b, outer, missing);
      if (missing.size > 0) return undefined;
      this.nested(e, b, outer);
      return outputs;
    };
    const order = orderLiterals(body.length, b, tryLiteral, (i) => exprVars(body[i] as Expr));
    const taken = new Set(order);
    const ordered = order.map((i) => body[i] as Expr);
    const remaining = body.filter((_, i) => !taken.has(i));
    this.reportUnsafe(remaining, b, outer);
    // Rebuilt without spreading: a body can have more literals than a call has arguments.
    body.length = 0;
    for (const e of ordered) body.push(e);
    for (const e of remaining) body.push(e);
    return b;
  }

  /** Reports the vars that keep `remaining` from being ordered, each var once. */
  private reportUnsafe(remaining: Body, b: Set<string>, outer: Set<string>): void {
    const reported = new Set<string>();
    for (const e of remaining) {
      const missing = new Set<string>();
      this.exprNeeds(e, b, outer, missing);
      for (const v of missing) {
        if (reported.has(v)) continue;
        reported.add(v);
        this.errors.push(unsafe(v, e.loc));
        // Reported once: treat it as bound so that later uses do not repeat the error.
        b.add(v);
      }
    }
  }

  /** Checks that head terms only use bound vars; processes their comprehensions. */
  checkHeadTerm(t: Term, bound: Set<string>, loc: Loc): void {
    const missing = new Set<string>();
    this.inputs(t, bound, bound, missing);
    for (const v of missing) this.errors.push(unsafe(v, loc));
    this.nestedTerm(t, bound, bound);
  }

  /** True for a `with` value that names a function or builtin rather than a value. */
  private namesFunction(t: Term): boolean {
    if (t.type === "var") return this.arity(t.name) !== undefined;
    if (t.type !== "ref" || t.head.type !== "var") return false;
    const parts = [t.head.name];
    for (const p of t.path) {
      if (p.type !== "scalar" || typeof p.value !== "string") return false;
      parts.push(p.value);
    }
    return this.arity(parts.join(".")) !== undefined;
  }

  /** Vars an expression binds; adds the vars it needs but lacks to `missing`. */
  private exprNeeds(
    e: Expr,
    b: Set<string>,
    outer: Set<string>,
    missing: Set<string>,
  ): Set<string> {
    const out = new Set<string>();
    for (const w of e.with)
      if (!this.namesFunction(w.value)) this.inputs(w.value, b, outer, missing);
    switch (e.type) {
      case "some":
        return out;
      case "somein":
        this.inputs(e.domain, b, outer, missing);
        this.refOutputs(e.domain, out);
        if (e.key) this.pattern(e.key, b, outer, missing, out);
        this.pattern(e.value, b, outer, missing, out);
        return out;
      case "every": {
        this.inputs(e.domain, b, outer, missing);
        const local = new Set<string>();
        if (e.key) allVars(e.key, local);
        allVars(e.value, local);
        for (const v of bodyVars(e.body)) {
          if (outer.has(v) && !b.has(v) && !local.has(v) && !globals.has(v)) missing.add(v);
        }
        return new Set();
      }
      case "term":
        this.termExpr(e.term, b, outer, missing, out);
        if (!e.negated) return out;
        // A negation binds nothing: its vars must come from elsewhere (wildcards excepted).
        for (const v of shallowExprVars(e)) {
          if (!b.has(v) && !globals.has(v) && !v.startsWith("_$")) missing.add(v);
        }
        return new Set();
    }
  }

  private termExpr(
    t: Term,
    b: Set<string>,
    outer: Set<string>,
    missing: Set<string>,
    out: Set<string>,
  ): void {
    if (t.type !== "call") {
      this.inputs(t, b, outer, missing);
      this.refOutputs(t, out);
      return;
    }
    if ((t.name === "eq" || t.name === "assign") && t.args.length === 2) {
      this.unify(t.args[0] as Term, t.args[1] as Term, b, outer, missing, out);
      return;
    }
    const n = this.arity(t.name);
    const inArgs = n !== undefined && t.args.length === n + 1 ? t.args.slice(0, n) : t.args;
    for (const a of inArgs) this.refOutputs(a, out);
    const available = new Set([...b, ...out]);
    for (const a of inArgs) this.inputs(a, available, outer, missing);
    if (inArgs.length < t.args.length)
      this.pattern(t.args[n as number] as Term, b, outer, missing, out);
  }

  private unify(
    x: Term,
    y: Term,
    b: Set<string>,
    outer: Set<string>,
    missing: Set<string>,
    out: Set<string>,
  ): void {
    const mx = new Set<string>();
    const my = new Set<string>();
    this.inputs(x, b, outer, mx);
    this.inputs(y, b, outer, my);
    if (my.size === 0) {
      this.refOutputs(y, out);
      this.pattern(x, b, outer, missing, out);
      return;
    }
    if (mx.size === 0) {
      this.refOutputs(x, out);
      this.pattern(y, b, outer, missing, out);
      return;
    }
    const pairs = structuralPairs(x, y);
    if (!pairs) {
      // A plain var on one side would be bound: only the other side's vars are at fault.
      if (x.type === "var" || y.type === "var") {
        for (const v of x.type === "var" ? my : mx) missing.add(v);
        return;
      }
      for (const v of mx) missing.add(v);
      for (const v of my) missing.add(v);
      return;
    }
    const local = new Set(b);
    let pending = pairs;
    let progress = true;
    while (pending.length > 0 && progress) {
      progress = false;
      const next: [Term, Term][] = [];
      for (const [p, q] of pending) {
        const m = new Set<string>();
        const o = new Set<string>();
        this.unify(p, q, local, outer, m, o);
        if (m.size === 0) {
          for (const v of o) {
            local.add(v);
            out.add(v);
          }
          progress = true;
        } else next.push([p, q]);
      }
      pending = next;
    }
    for (const [p, q] of pending) this.unify(p, q, local, outer, missing, out);
  }

  /** A term on the binding side of a unification: its vars become bound. */
  private pattern(
    t: Term,
    b: Set<string>,
    outer: Set<string>,
    missing: Set<string>,
    out: Set<string>,
  ): void {
    switch (t.type) {
      case "var":
        if (!globals.has(t.name)) out.add(t.name);
        return;
      case "array":
        for (const x of t.items) this.pattern(x, b, outer, missing, out);
        return;
      case "object":
        for (const [k, v] of t.entries) {
          this.inputs(k, b, outer, missing);
          this.pattern(v, b, outer, missing, out);
        }
        return;
      default:
        this.inputs(t, b, outer, missing);
        this.refOutputs(t, out);
    }
  }

  /** Vars a term needs bound to be evaluated as a value. */
  private inputs(t: Term, b: Set<string>, outer: Set<string>, missing: Set<string>): void {
    switch (t.type) {
      case "scalar":
        return;
      case "var":
        if (!b.has(t.name) && !globals.has(t.name)) missing.add(t.name);
        return;
      case "ref":
        this.inputs(t.head, b, outer, missing);
        for (const p of t.path) {
          if (p.type === "array" || p.type === "object")
            this.pattern(p, b, outer, missing, new Set());
          else if (p.type !== "var") this.inputs(p, b, outer, missing);
        }
        return;
      case "arraycompr":
      case "setcompr":
      case "objectcompr":
        for (const v of allVars(t)) {
          if (outer.has(v) && !b.has(v) && !globals.has(v)) missing.add(v);
        }
        return;
      case "template":
        for (const p of t.parts) {
          if (typeof p === "string") continue;
          const m = new Set<string>();
          this.exprNeeds(p, b, outer, m);
          for (const v of m) missing.add(v);
        }
        return;
      default:
        forEachChild(t, (c) => this.inputs(c, b, outer, missing));
    }
  }

  /** Vars in ref paths: evaluating the ref enumerates and binds them. */
  private refOutputs(t: Term, out: Set<string>): void {
    if (t.type === "ref") {
      this.refOutputs(t.head, out);
      for (const p of t.path) {
        if (p.type === "var") out.add(p.name);
        else if (p.type === "array" || p.type === "object") allVars(p, out);
        else this.refOutputs(p, out);
      }
      return;
    }
    if (t.type === "call" || t.type === "array" || t.type === "object" || t.type === "set") {
      forEachChild(t, (c) => this.refOutputs(c, out));
    }
  }

  private nested(e: Expr, b: Set<string>, outer: Set<string>): void {
    for (const w of e.with) this.nestedTerm(w.value, b, outer);
    switch (e.type) {
      case "term":
        this.nestedTerm(e.term, b, outer);
        return;
      case "somein":
        this.nestedTerm(e.domain, b, outer);
        return;
      case "every": {
        this.nestedTerm(e.domain, b, outer);
        const inner = new Set(b);
        if (e.key) allVars(e.key, inner);
        allVars(e.value, inner);
        this.checkBody(e.body, inner);
        return;
      }
      default:
        return;
    }
  }

  /** Orders the bodies of comprehensions inside a term, given the vars bound around it. */
  private nestedTerm(t: Term, b: Set<string>, outer: Set<string>): void {
    switch (t.type) {
      case "arraycompr":
      case "setcompr": {
        [t.term] = this.checkBodyAndHead(t.body, [t.term], b, t.loc) as [Term];
        return;
      }
      case "objectcompr": {
        [t.key, t.value] = this.checkBodyAndHead(t.body, [t.key, t.value], b, t.loc) as [
          Term,
          Term,
        ];
        return;
      }
      case "template":
        for (const p of t.parts) if (typeof p !== "string") this.nested(p, b, outer);
        return;
      default:
        forEachChild(t, (c) => this.nestedTerm(c, b, outer));
    }
  }
}

/** True for a term OPA's compiler moves out of a head: one with a ref, call or closure. */
function needsEval(t: Term): boolean {
  switch (t.type) {
    case "scalar":
    case "var":
      return false;
    case "array":
    case "set":
    case "object": {
      let found = false;
      forEachChild(t, (c) => {
        found ||= needsEval(c);
      });
      return found;
    }
    default:
      return true;
  }
}

/** Element pairs when both sides are arrays of one length or objects with the same keys. */
function structuralPairs(x: Term, y: Term): [Term, Term][] | undefined {
  if (x.type === "array" && y.type === "array" && x.items.length === y.items.length) {
    return x.items.map((t, i) => [t, y.items[i] as Term]);
  }
  if (x.type === "object" && y.type === "object" && x.entries.length === y.entries.length) {
    const pairs: [Term, Term][] = [];
    for (const [k, v] of x.entries) {
      if (k.type !== "scalar") return undefined;
      const match = y.entries.find(([k2]) => k2.type === "scalar" && k2.value === k.value);
      if (!match) return undefined;
      pairs.push([v, match[1]]);
    }
    return pairs;
  }
  return undefined;
}

function unsafe(name: string, loc: Loc): RegoError {
  return new RegoError("rego_unsafe_var_error", `var ${displayName(name)} is unsafe`, {
    file: loc.file,
    row: loc.row,
    col: loc.col,
  });
}
