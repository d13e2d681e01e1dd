/**
 * Operands of negated expressions are evaluated before the negation, as OPA's compiler
 * arranges. OPA's stages RewriteExprTerms and RewriteDynamicTerms move every nested call
 * and every ref used as a call argument (or as a dynamic key of a ref) into an expression
 * of its own, `__localN__ = <term>`, placed before the expression that used it, and they do
 * so for negated expressions too: the moved expression is not negated. So in OPA
 * `not f(input.missing)` is undefined (the moved `__local0__ = input.missing` fails before
 * the negation is reached), where evaluating the operand inside the negation would make it
 * true.
 *
 * Only negated expressions are rewritten: for any other expression the move changes no
 * answer (an undefined operand makes the expression undefined either way), and leaving them
 * as written keeps traces and partial evaluation results as they were. The rewrite runs
 * after the safety and type checks, so that messages name the operands as written and every
 * var a moved term needs is bound before the negated expression.
 *
 * What moves, as in OPA:
 * - a call's operands (user functions, builtins, and operators that are calls: `!=`, `<`,
 *   `in`, ...): refs, nested calls and comprehensions move; arrays, objects and sets stay
 *   but their elements move; vars and scalars stay.
 * - `a = b` (and `==` in modules and partial evaluation, where OPA's RewriteEquals makes it
 *   `=` first): a plain ref operand stays (`not input.missing == 1` holds); only its dynamic
 *   keys move (`not obj[input.missing] == 1` is undefined). An ad-hoc query keeps `==` a
 *   call (OPA's query compiler has no RewriteEquals), so there its ref operands move.
 * - a term tested for truth (`not obj[input.missing]`): the dynamic keys of a ref move.
 * Each moved expression keeps the `with` modifiers of the expression it came from.
 */
import type { Body, CallTerm, Expr, Module, RefTerm, Rule, Term, TermExpr } from "../ast/nodes.js";
import { forEachChild } from "../ast/walk.js";

/** How `==` is read, and where fresh var numbers come from. */
export interface NegationRewrite {
  /** Fresh vars are numbered from this counter (the compiler's, so that names never clash). */
  counter: { n: number };
  /** True in modules and partial evaluation: `==` is unification, as after OPA's RewriteEquals. */
  equalIsUnify: boolean;
}

/** Rewrites every body of the modules' rules: rule bodies, else bodies, nested bodies. */
export function rewriteNegatedOperands(modules: Module[], counter: { n: number }): void {
  const rw = new OperandMover({ counter, equalIsUnify: true });
  for (const m of modules) for (const r of m.rules) rw.rule(r);
}

/** Rewrites a compiled query body in place. */
export function rewriteQueryNegations(body: Body, options: NegationRewrite): void {
  new OperandMover(options).body(body);
}

/**
 * True when `not e` would have operands moved out of the negation: then `not e` does not
 * say "e does not hold" (partial evaluation may not write a rule's one condition negated).
 */
export function negationMovesOperands(e: Expr, equalIsUnify: boolean): boolean {
  if (e.type !== "term") return false;
  const mover = new OperandMover({ counter: { n: 0 }, equalIsUnify });
  return mover.negation({ ...e, negated: true }).length > 1;
}

class OperandMover {
  /** The expressions moved out of the negated expression being rewritten. */
  private moved: Expr[] = [];
  private origin: Expr | undefined;

  constructor(private readonly options: NegationRewrite) {}

  rule(rule: Rule): void {
    for (let r: Rule | undefined = rule; r; r = r.elseRule) {
      this.body(r.body);
      for (const t of [...r.ref.slice(1), r.key, r.value]) if (t) this.nestedInTerm(t);
    }
  }

  /** Rewrites a body in place: nested bodies first, then each negated expression. */
  body(body: Body): void {
    const out: Expr[] = [];
    for (const e of body) {
      this.nestedInExpr(e);
      if (e.type === "term" && e.negated) out.push(...this.negation(e));
      else out.push(e);
    }
    body.length = 0;
    for (const e of out) body.push(e);
  }

  /** The moved expressions, then the negated expression over their vars. */
  negation(e: TermExpr): Expr[] {
    this.moved = [];
    this.origin = e;
    const t = e.term;
    let term: Term;
    if (t.type === "call" && this.unifies(t)) {
      term = { ...t, args: t.args.map((a) => this.operand(a)) };
    } else if (t.type === "call") {
      term = { ...t, args: t.args.map((a) => this.moveOne(a)) };
    } else term = this.operand(t);
    const moved = this.moved;
    this.moved = [];
    this.origin = undefined;
    if (moved.length === 0) return [e];
    return [...moved, { ...e, term }];
  }

  private unifies(t: CallTerm): boolean {
    if (t.args.length !== 2) return false;
    if (t.name === "eq" || t.name === "assign") return true;
    return t.name === "equal" && this.options.equalIsUnify;
  }

  /**
   * An operand of `=`, or a term tested for truth (OPA's rewriteDynamicsInTerm): a ref
   * stays but its composite head and dynamic keys move; a comprehension stays.
   */
  private operand(t: Term): Term {
    switch (t.type) {
      case "ref":
        return this.refParts(t);
      case "arraycompr":
      case "setcompr":
      case "objectcompr":
        return t;
      default:
        return this.moveOne(t);
    }
  }

  /** A ref with its non-var head and every key moved where they need evaluating. */
  private refParts(t: RefTerm): Term {
    const head = t.head.type === "var" ? t.head : this.moveOne(t.head);
    return { ...t, head, path: t.path.map((p) => this.moveOne(p)) };
  }

  /**
   * A term as a call argument (OPA's rewriteDynamicsOne, with RewriteExprTerms's nested
   * calls): refs, calls and comprehensions become a fresh var bound just before; the
   * elements of composites are moved one by one.
   */
  private moveOne(t: Term): Term {
    switch (t.type) {
      case "ref":
        return this.bind(this.refParts(t));
      case "call":
        return this.bind({ ...t, args: t.args.map((a) => this.moveOne(a)) });
      case "arraycompr":
      case "setcompr":
      case "objectcompr":
        return this.bind(t);
      case "array":
      case "set":
        return { ...t, items: t.items.map((x) => this.moveOne(x)) };
      case "object":
        return {
          ...t,
          entries: t.entries.map(([k, v]) => [this.moveOne(k), this.moveOne(v)] as [Term, Term]),
        };
      default:
        return t;
    }
  }

  /** `__localN__ = t` before the negated expression, under its `with` modifiers. */
  private bind(t: Term): Term {
    const n = this.options.counter.n++;
    // The `$` keeps the name apart from any var a user can write; it reads `__localN__`.
    const v: Term = { type: "var", name: `__local${n}__$`, loc: t.loc };
    const call: CallTerm = {
      type: "call",
      name: "eq",
      op: { type: "var", name: "eq", loc: t.loc },
      args: [v, t],
      loc: t.loc,
    };
    const origin = this.origin as Expr;
    this.moved.push({
      type: "term",
      term: call,
      negated: false,
      with: origin.with,
      loc: t.loc,
      generated: true,
    });
    return v;
  }

  /** Rewrites the bodies nested in an expression: comprehensions, `every`. */
  private nestedInExpr(e: Expr): void {
    for (const w of e.with) this.nestedInTerm(w.value);
    switch (e.type) {
      case "term":
        this.nestedInTerm(e.term);
        return;
      case "somein":
        if (e.key) this.nestedInTerm(e.key);
        this.nestedInTerm(e.value);
        this.nestedInTerm(e.domain);
        return;
      case "every":
        this.nestedInTerm(e.domain);
        this.body(e.body);
        return;
      default:
        return;
    }
  }

  private nestedInTerm(t: Term): void {
    switch (t.type) {
      case "arraycompr":
      case "setcompr":
        this.body(t.body);
        this.nestedInTerm(t.term);
        return;
      case "objectcompr":
        this.body(t.body);
        this.nestedInTerm(t.key);
        this.nestedInTerm(t.value);
        return;
      default:
        forEachChild(t, (c) => this.nestedInTerm(c));
    }
  }
}
