/**
 * The partial evaluator, after OPA's: a query is evaluated as far as the known documents
 * allow; each expression that reads an unknown (or a var bound only by such an expression)
 * is saved, with the values of known vars plugged in, and evaluation goes on as if it held.
 * Every way through the query gives one residual query: the saved expressions. Rules that
 * depend on unknowns are inlined where possible (each body in turn, its saved expressions
 * joining the caller's) and otherwise written as support rules under `data.partial`.
 * Everything else is evaluated by the ordinary evaluator, with the given (known) input.
 */

import { constantValue } from "../ast/constant-value.js";
import type { Body, Expr, Term } from "../ast/nodes.js";
import { negationMovesOperands } from "../compile/negated-operands.js";
import type { RuleNode } from "../compile/tree.js";
import { collectionTooLarge } from "../errors.js";
import type { Evaluator } from "../eval/evaluator.js";
import type { Value } from "../value/value.js";
import { Dependence, dataTarget } from "./dependence.js";
import { type SupportHost, SupportRules } from "./support.js";
import { isSupport, pathRef, SUPPORT_LOC } from "./support-refs.js";
import {
  eqExpr,
  joinRef,
  mapBody,
  mapExpr,
  mapTerm,
  replaceInExpr,
  shallowTerms,
  someShallow,
  valueTerm,
  varTerm,
} from "./terms.js";
import { exprParts, exprSome, hasVars, mapChildren, mapExprTerms } from "./traversal.js";
import { readsUnknown, type UnknownPath } from "./unknowns.js";

/** What partial evaluation needs from the engine. */
export interface PartialSetup {
  root: RuleNode;
  /** Evaluates what is known: its input is the known part of the input. */
  evaluator: Evaluator;
  unknowns: readonly UnknownPath[];
  /** Data paths (without `data`) whose rules are never inlined. */
  disableInlining: readonly (readonly string[])[];
  /** Most residual queries before the evaluation gives up (as the collection bound). */
  maxQueries: number;
  /** Evaluate nondeterministic builtins now instead of keeping their calls. */
  nondeterministicBuiltins?: boolean;
}

const TRUE: Term = valueTerm(true);

/** Calls that unify or print: never evaluated as operands of a saved expression. */
const KEEP_CALLS = new Set(["eq", "assign", "print", "internal.print"]);

export class PartialEvaluator implements SupportHost {
  private readonly known = new Map<string, Value>();
  private readonly residual = new Set<string>();
  private saved: Expr[] = [];
  private frames = 0;
  private wildcards = 0;
  private readonly deps: Dependence;
  readonly support: SupportRules;

  constructor(private readonly setup: PartialSetup) {
    this.deps = new Dependence(setup.root, setup.unknowns, setup.nondeterministicBuiltins);
    this.support = new SupportRules(this);
  }

  /** The residual queries of `query` (before copy propagation and renaming). */
  run(query: Body, outputVars: readonly string[], onQuery: (body: Body) => void): void {
    let count = 0;
    this.evalBody(query, 0, () => {
      // Plugged again: a var may have been bound after an expression using it was saved.
      const body = this.saved.map((e) => this.plugExpr(e));
      for (const name of outputVars) {
        const v = this.known.get(name);
        if (v !== undefined) body.push(eqExpr(varTerm(name), valueTerm(v)));
      }
      if (++count > this.setup.maxQueries)
        throw collectionTooLarge("partial evaluation queries", count, this.setup.maxQueries);
      onQuery(body);
    });
  }

  evalBody(body: Body, i: number, k: () => void): void {
    if (i === body.length) {
      k();
      return;
    }
    this.evalExpr(body[i] as Expr, () => this.evalBody(body, i + 1, k));
  }

  /** Runs `body` on its own, giving what `finish` makes of each way it can hold. */
  subRun<T>(body: Body, finish: (saved: Expr[]) => T): T[] {
    const outer = this.saved;
    this.saved = [];
    const out: T[] = [];
    try {
      this.evalBody(body, 0, () => {
        out.push(finish(this.saved.map((e) => this.plugExpr(e))));
      });
    } finally {
      this.saved = outer;
    }
    return out;
  }

  /** Gives every var of an inlined rule a name of its own for this use of the rule. */
  freshNames(): (name: string) => Term {
    const frame = ++this.frames;
    return (name) => varTerm(`${name}#${frame}`);
  }

  /** Marks vars as unknown while `f` runs (a support function's parameters). */
  withResidual<T>(names: Iterable<string>, f: () => T): T {
    const added = [...names].filter((n) => !this.residual.has(n));
    for (const n of added) this.residual.add(n);
    try {
      return f();
    } finally {
      for (const n of added) this.residual.delete(n);
    }
  }

  /** The term with known vars replaced by their values. */
  plug(t: Term): Term {
    return mapTerm(t, (name) => {
      const v = this.known.get(name);
      return v === undefined ? undefined : valueTerm(v);
    });
  }

  private plugExpr(e: Expr): Expr {
    return mapExpr(e, (name) => {
      const v = this.known.get(name);
      return v === undefined ? undefined : valueTerm(v);
    });
  }

  // ---- expressions ----------------------------------------------------------------------

  private evalExpr(e: Expr, k: () => void): void {
    if (e.type === "some") {
      k();
      return;
    }
    const cancel = this.setup.evaluator.cancel;
    if (cancel.active) cancel.check();
    if (!this.exprTouches(e) || this.inputReplaced(e)) {
      this.setup.evaluator.evalExpr(e, this.known, () => {
        k();
        return false;
      });
      return;
    }
    if (e.negated && e.with.length === 0 && this.negateInline(e, k)) return;
    if (e.with.length === 0 && !e.negated) {
      const dirty = this.firstDirty(e);
      if (dirty) {
        this.inline(e, dirty, k);
        return;
      }
      if (this.bindResidual(e, k)) return;
    }
    this.save(e, k);
  }

  /**
   * `v = <known value>` for a var bound so far only by saved expressions: `v` takes the value
   * (the saved expressions get it when the query is done), as OPA binds it.
   */
  private bindResidual(e: Expr, k: () => void): boolean {
    if (e.type !== "term" || e.term.type !== "call") return false;
    const call = e.term;
    if ((call.name !== "eq" && call.name !== "assign") || call.args.length !== 2) return false;
    const [a, b] = call.args as [Term, Term];
    const v = a.type === "var" && this.residual.has(a.name) ? a : b;
    const other = v === a ? b : a;
    if (v.type !== "var" || !this.residual.has(v.name) || this.known.has(v.name)) return false;
    const value = this.plug(other);
    if (this.termTouches(value) || hasVars(value)) return false;
    this.withKnown([v.name], () =>
      this.setup.evaluator.evalExpr(e, this.known, () => {
        k();
        return false;
      }),
    );
    return true;
  }

  /** Runs `f` with `names` no longer unknown: it binds them to values. */
  private withKnown<T>(names: readonly string[], f: () => T): T {
    const removed = names.filter((n) => this.residual.delete(n));
    try {
      return f();
    } finally {
      for (const n of removed) this.residual.add(n);
    }
  }

  /**
   * `... with input as <known value>` when only the input has unknowns: the whole input is
   * replaced by a known value, so the expression can be evaluated now.
   */
  private inputReplaced(e: Expr): boolean {
    const replacesInput = e.with.some(
      (w) =>
        ((w.target.type === "var" && w.target.name === "input") ||
          (w.target.type === "ref" &&
            w.target.path.length === 0 &&
            w.target.head.type === "var" &&
            w.target.head.name === "input")) &&
        !this.termTouches(w.value),
    );
    if (!replacesInput || this.setup.unknowns.some((u) => u[0] !== "input")) return false;
    // Vars bound only by saved expressions stay unknown whatever the input.
    const residualVar = exprSome(e, (t) => t.type === "var" && this.residual.has(t.name));
    return !residualVar && !exprSome(e, (t) => isSupport(t));
  }

  /** True when the term (anywhere inside) is not known now. */
  private termTouches(t: Term): boolean {
    if (isSupport(t)) return true;
    switch (t.type) {
      case "var":
        return this.residual.has(t.name) || readsUnknown(t, this.setup.unknowns);
      case "ref":
        if (readsUnknown(t, this.setup.unknowns) || this.deps.dataRefDirty(t)) return true;
        // A root head (`input.user`) was judged with its keys; any other head is an operand.
        if (t.head.type !== "var" || (t.head.name !== "input" && t.head.name !== "data")) {
          if (this.termTouches(t.head)) return true;
        }
        return t.path.some((p) => this.termTouches(p));
      case "array":
      case "set":
        return t.items.some((x) => this.termTouches(x));
      case "object":
        return t.entries.some(([a, b]) => this.termTouches(a) || this.termTouches(b));
      case "arraycompr":
      case "setcompr":
        return this.termTouches(t.term) || t.body.some((e) => this.exprTouches(e));
      case "objectcompr":
        return (
          this.termTouches(t.key) ||
          this.termTouches(t.value) ||
          t.body.some((e) => this.exprTouches(e))
        );
      case "call":
        return this.deps.callDirty(t.name) || t.args.some((a) => this.termTouches(a));
      case "template":
        return t.parts.some((p) => typeof p !== "string" && this.exprTouches(p));
      default:
        return false;
    }
  }

  private exprTouches(e: Expr): boolean {
    if (e.with.some((w) => this.termTouches(w.value))) return true;
    const { terms, body } = exprParts(e);
    return terms.some((t) => this.termTouches(t)) || body.some((x) => this.exprTouches(x));
  }

  /** The outermost operand that refers to a rule or function depending on unknowns. */
  private firstDirty(e: Expr): Term | undefined {
    let found: Term | undefined;
    for (const t of shallowTerms(e)) {
      someShallow(t, (x) => {
        if (isSupport(x)) return false;
        if (x.type === "ref" && this.deps.dataRefDirty(x)) found = x;
        else if (x.type === "call" && this.functionNeedsSupport(x)) found = x;
        return found !== undefined;
      });
      if (found) return found;
    }
    return undefined;
  }

  /**
   * A call of a user function that cannot be evaluated now (it reads unknowns, or an
   * argument is unknown): inlined, or else written as a support function, so that residuals
   * never call the policy's own functions.
   */
  private functionNeedsSupport(t: Extract<Term, { type: "call" }>): boolean {
    if (!t.name.startsWith("data.") || isSupport(t)) return false;
    if (this.deps.callDirty(t.name)) return true;
    const node = this.setup.root.find(t.name.split(".").slice(1));
    return node?.isFunction === true && t.args.some((a) => this.termTouches(a));
  }

  private inliningDisabled(node: RuleNode): boolean {
    return this.setup.disableInlining.some(
      (p) => p.length <= node.path.length && p.every((key, i) => node.path[i] === key),
    );
  }

  /** Replaces a ref to a rule depending on unknowns by the rule's bodies and values. */
  private inline(e: Expr, t: Term, k: () => void): void {
    if (t.type === "call") {
      this.inlineCall(e, t, k);
      return;
    }
    if (t.type !== "ref") {
      this.viaSupport(e, t, k);
      return;
    }
    const target = dataTarget(this.setup.root, t.path);
    if (target.kind !== "node") {
      this.save(e, k);
      return;
    }
    const { node, rest } = target;
    const plain =
      !this.inliningDisabled(node) &&
      (!node.defaultRule || (rest.length === 0 && this.defaultCannotHold(e, t, node))) &&
      node.keyedDefaults.length === 0 &&
      node.children.size === 0 &&
      node.rules.every((cr) => !cr.elseRule);
    if (plain && node.isComplete) {
      for (const cr of node.rules) {
        const rename = this.freshNames();
        const body = mapBody(cr.rule.body, rename);
        const value = mapTerm(cr.rule.value ?? TRUE, rename);
        this.evalBody(body, 0, () => {
          this.evalExpr(replaceInExpr(e, t, joinRef(this.plug(value), rest, t.loc)), k);
        });
      }
      return;
    }
    const [key, ...more] = rest;
    const keyed =
      plain &&
      key !== undefined &&
      (node.isMultiSet ||
        (!node.isComplete &&
          node.rules.every((cr) => cr.rule.kind === "single" && cr.dynamic.length === 1)));
    if (keyed) {
      for (const cr of node.rules) {
        const rename = this.freshNames();
        const body = mapBody(cr.rule.body, rename);
        const element = mapTerm(
          node.isMultiSet ? (cr.rule.key as Term) : (cr.dynamic[0] as Term),
          rename,
        );
        // A set's member is the key itself (bound by then): the simplest term for it.
        const value = node.isMultiSet ? key : mapTerm(cr.rule.value ?? TRUE, rename);
        // `s[x]` alone: membership is the whole test (as OPA, the member is not also tested
        // for being `false`).
        const membership =
          node.isMultiSet && more.length === 0 && e.type === "term" && e.term === t;
        this.evalBody(body, 0, () => {
          this.evalExpr(eqExpr(key, this.plug(element)), () => {
            if (membership) k();
            else this.evalExpr(replaceInExpr(e, t, joinRef(this.plug(value), more, t.loc)), k);
          });
        });
      }
      return;
    }
    this.viaSupport(e, t, k);
  }

  /**
   * True when the expression could not hold with the rule's default value, so the default
   * need not be kept (as OPA): `p == true` or plain `p` with `default p := false`.
   */
  private defaultCannotHold(e: Expr, t: Term, node: RuleNode): boolean {
    const d = node.defaultRule?.value ? constantValue(node.defaultRule.value) : true;
    if (d === undefined) return false;
    const withDefault = replaceInExpr(e, t, valueTerm(d));
    if (this.exprTouches(withDefault)) return false;
    return !this.setup.evaluator.evalExpr(withDefault, new Map(this.known), () => true);
  }

  /**
   * A call of a user function that cannot be evaluated now: each definition in turn, its
   * parameters unified with the arguments, as OPA inlines functions. Functions with a
   * default or an else chain, or under `disableInlining`, become support functions.
   */
  private inlineCall(e: Expr, t: Extract<Term, { type: "call" }>, k: () => void): void {
    const node = this.setup.root.find(t.name.split(".").slice(1));
    const arity = node?.arity ?? -1;
    const output = t.args.length === arity + 1 ? (t.args[arity] as Term) : undefined;
    const inlinable =
      node?.isFunction === true &&
      !this.inliningDisabled(node) &&
      !node.defaultRule &&
      node.rules.every((cr) => !cr.elseRule) &&
      (t.args.length === arity || (output !== undefined && e.type === "term" && e.term === t));
    if (!node || !inlinable) {
      this.viaSupport(e, t, k);
      return;
    }
    for (const cr of node.rules) {
      const rename = this.freshNames();
      const params = (cr.rule.args ?? []).map((a) => mapTerm(a, rename));
      const bind: Body = params.map((p, i) => eqExpr(p, t.args[i] as Term, t.loc));
      const body = [...bind, ...mapBody(cr.rule.body, rename)];
      const value = mapTerm(cr.rule.value ?? TRUE, rename);
      this.evalBody(body, 0, () => {
        const result = this.plug(value);
        const next = output
          ? { ...eqExpr(output, result, e.loc), negated: false }
          : replaceInExpr(e, t, result);
        this.evalExpr(next, k);
      });
    }
  }

  /**
   * `not p` where `p` is one rule whose body comes down to one saved expression without
   * vars of its own: `not <that expression>`; where the body can never hold, `not p` holds.
   * False when it does not apply (the caller goes on as usual).
   */
  private negateInline(e: Expr, k: () => void): boolean {
    if (e.type !== "term" || e.term.type !== "ref" || !this.deps.dataRefDirty(e.term)) return false;
    const target = dataTarget(this.setup.root, e.term.path);
    if (target.kind !== "node" || target.rest.length > 0) return false;
    const node = target.node;
    const cr = node.rules[0];
    if (
      !cr ||
      node.rules.length !== 1 ||
      !node.isComplete ||
      node.defaultRule ||
      node.children.size > 0 ||
      cr.elseRule ||
      this.inliningDisabled(node)
    )
      return false;
    const value = cr.rule.value ? constantValue(cr.rule.value) : true;
    if (value === undefined || value === false) return false;
    const rename = this.freshNames();
    const branches = this.subRun(mapBody(cr.rule.body, rename), (saved) => saved);
    if (branches.length === 0) {
      k();
      return true;
    }
    const only = branches.length === 1 ? branches[0] : undefined;
    const saved = only?.length === 1 ? only[0] : undefined;
    if (!saved || saved.negated || saved.with.length > 0) return false;
    // `==` is `=` here, as after OPA's RewriteEquals; past that, a negation whose operands
    // would be moved out of it says something else than "the rule does not hold".
    const negation = unifying(saved);
    if (negationMovesOperands(negation, false)) return false;
    const ownVars = exprSome(
      saved,
      (x) =>
        x.type === "var" && x.name !== "input" && x.name !== "data" && !this.residual.has(x.name),
    );
    if (ownVars) return false;
    this.saved.push({ ...negation, negated: true });
    try {
      k();
    } finally {
      this.saved.pop();
    }
    return true;
  }

  /** Refers to the support rule written for the rule or function instead. */
  private viaSupport(e: Expr, t: Term, k: () => void): void {
    const replacement = this.supportTerm(t);
    if (!replacement) {
      this.save(e, k);
      return;
    }
    this.evalExpr(replaceInExpr(e, t, replacement), k);
  }

  /** The support version of a ref or call (writing the support rules); undefined if none. */
  private supportTerm(t: Term): Term | undefined {
    if (t.type === "call") {
      const node = this.setup.root.find(t.name.split(".").slice(1));
      if (!node || !this.support.ensure(node)) return undefined;
      const name = `data.partial.${node.path.join(".")}`;
      return { ...t, name, op: pathRef(["partial", ...node.path], SUPPORT_LOC), loc: SUPPORT_LOC };
    }
    if (t.type !== "ref") return undefined;
    const target = dataTarget(this.setup.root, t.path);
    if (target.kind !== "node" || !this.support.ensure(target.node)) return undefined;
    const head = pathRef(["partial", ...target.node.path], SUPPORT_LOC);
    return target.rest.length === 0 ? head : joinRef(head, target.rest, SUPPORT_LOC);
  }

  // ---- saving ---------------------------------------------------------------------------

  private save(e: Expr, k: () => void): void {
    let x = this.plugExpr(e);
    if (x.with.length > 0) {
      // Its operands are read under the replacements: nothing is evaluated or rewritten now.
      this.push(x, k);
      return;
    }
    if (x.type === "somein" && !x.negated) {
      // `some v in xs` is saved as `v = xs[_]`, as OPA's compiler rewrites it.
      const key = x.key ?? varTerm(`_$partial${++this.wildcards}`);
      x = { ...eqExpr(x.value, joinRef(x.domain, [key], x.loc), x.loc), with: x.with };
    } else if (x.type === "term" && x.term.type === "call" && x.term.name === "assign") {
      x = { ...x, term: { ...x.term, name: "eq", op: varTerm("eq", x.term.op.loc) } };
    } else if (x.negated) {
      // A residual query would read a negated `==` as a call, moving its operands out.
      x = unifying(x);
    }
    this.simplify(x, k);
  }

  /** Evaluates the known operands of a saved expression, then saves what is left. */
  private simplify(x: Expr, k: () => void): void {
    const s = this.evaluable(x);
    if (!s) {
      this.push(x, k);
      return;
    }
    let defined = false;
    this.withKnown(s.free ?? [], () =>
      this.setup.evaluator.evalTerm(s.evaluate, this.known, (v) => {
        defined = true;
        const replacement = joinRef(valueTerm(v), s.rest, s.target.loc);
        this.simplify(this.plugExpr(replaceInExpr(x, s.target, replacement)), k);
        return false;
      }),
    );
    // An undefined operand makes the expression undefined: `not` of it holds.
    if (!defined && x.negated) k();
  }

  /**
   * A shallow operand that can be evaluated now: ground and known, or data to enumerate, or
   * the known leading part of a ref into a rule (`data.x.roles[input.role]`: the rule's value
   * replaces `data.x.roles`, so that the residual does not depend on the policy).
   */
  private evaluable(x: Expr): Evaluable | undefined {
    let found: Evaluable | undefined;
    const consider = (t: Term): boolean => {
      if (t.type === "scalar" || t.type === "var") return false;
      if (this.termTouches(t)) {
        const keys = x.negated ? undefined : this.residualKeys(t);
        if (keys) {
          found = { evaluate: t, target: t, rest: [], free: keys };
          return true;
        }
        const known = this.knownRulePrefix(t);
        if (known) found = { evaluate: known.prefix, target: t, rest: known.rest };
        return found !== undefined;
      }
      if (t.type === "ref") {
        const head = t.head;
        const rootRef = head.type === "var" && (head.name === "data" || head.name === "input");
        const constantHead = head.type !== "var" && head.type !== "ref" && !hasVars(head);
        if (!rootRef && !constantHead) return false;
        if (hasVars(t) && x.negated) return false;
        found = { evaluate: t, target: t, rest: [] };
        return true;
      }
      if (t.type === "call") {
        if (KEEP_CALLS.has(t.name) || hasVars(t)) return false;
        found = { evaluate: t, target: t, rest: [] };
        return true;
      }
      if (t.type === "arraycompr" || t.type === "setcompr" || t.type === "objectcompr") {
        found = { evaluate: t, target: t, rest: [] };
        return true;
      }
      return false;
    };
    for (const t of shallowTerms(x)) {
      // The expression's own operator call is the expression, not an operand.
      const operands =
        t.type === "call" && t === (x.type === "term" ? x.term : undefined) ? t.args : [t];
      for (const o of operands) if (someShallow(o, consider)) return found;
    }
    return undefined;
  }

  /**
   * For a ref into known data whose only unknown keys are vars bound by saved expressions
   * (`data.roles[r]` after `r = input.roles[_]`): those vars. The ref is then enumerated,
   * binding them to each key in turn, as OPA does (one residual per key).
   */
  private residualKeys(t: Term): string[] | undefined {
    if (t.type !== "ref" || isSupport(t)) return undefined;
    if (readsUnknown(t, this.setup.unknowns) || this.deps.dataRefDirty(t)) return undefined;
    const head = t.head;
    const rootHead = head.type === "var" && (head.name === "data" || head.name === "input");
    if (!rootHead && (head.type === "var" || head.type === "ref" || hasVars(head)))
      return undefined;
    const free: string[] = [];
    for (const p of t.path) {
      if (p.type === "var") {
        if (this.residual.has(p.name)) free.push(p.name);
      } else if (this.termTouches(p)) return undefined;
    }
    return free.length > 0 ? free : undefined;
  }

  /** `data.<known keys>` naming a rule that does not depend on unknowns, and the keys after. */
  private knownRulePrefix(t: Term): { prefix: Term; rest: Term[] } | undefined {
    if (t.type !== "ref" || t.head.type !== "var" || t.head.name !== "data") return undefined;
    const target = dataTarget(this.setup.root, t.path);
    if (target.kind !== "node" || target.rest.length === 0) return undefined;
    if (target.node.isFunction || this.deps.nodeDirty(target.node)) return undefined;
    const n = t.path.length - target.rest.length;
    const prefix: Term = { type: "ref", head: t.head, path: t.path.slice(0, n), loc: t.loc };
    return { prefix, rest: target.rest };
  }

  private push(x0: Expr, k: () => void): void {
    if (!this.exprTouches(x0)) {
      this.setup.evaluator.evalExpr(x0, this.known, () => {
        k();
        return false;
      });
      return;
    }
    const x = this.supportNested(x0);
    const added: string[] = [];
    if (!x.negated) {
      for (const t of shallowTerms(x))
        someShallow(t, (v) => {
          if (v.type === "var" && v.name !== "input" && v.name !== "data") {
            if (!this.residual.has(v.name) && !this.known.has(v.name)) {
              this.residual.add(v.name);
              added.push(v.name);
            }
          }
          return false;
        });
    }
    this.saved.push(x);
    try {
      k();
    } finally {
      this.saved.pop();
      for (const n of added) this.residual.delete(n);
    }
  }

  /** Rules depending on unknowns that a saved expression still names: their support rules. */
  private supportNested(x: Expr): Expr {
    const f = (t: Term): Term => {
      if (isSupport(t)) return t;
      const dirty =
        (t.type === "ref" && this.deps.dataRefDirty(t)) ||
        (t.type === "call" && this.functionNeedsSupport(t));
      if (dirty) {
        const s = this.supportTerm(t);
        if (s) return t.type === "call" ? { ...(s as typeof t), args: t.args.map(f) } : s;
      }
      return mapChildren(t, f);
    };
    return mapExprTerms(x, f);
  }
}

/** An operand to evaluate now: `evaluate`'s value replaces `target` (followed by `rest`). */
interface Evaluable {
  evaluate: Term;
  target: Term;
  rest: Term[];
  /** Vars bound so far only by saved expressions, which the evaluation binds to keys. */
  free?: string[];
}

/** `a == b` as `a = b`; any other expression as it is. */
function unifying(e: Expr): Expr {
  if (e.type !== "term" || e.term.type !== "call") return e;
  const t = e.term;
  if (t.name !== "equal" || t.args.length !== 2) return e;
  return { ...e, term: { ...t, name: "eq", op: varTerm("eq", t.op.loc) } };
}
