/**
 * The heart of top-down evaluation: bodies, expressions, terms and unification in
 * continuation-passing style. Each function calls its continuation once per solution and
 * returns true when a continuation asked to stop (used by `not`, `every` and early exits).
 * Bindings live in a Map per rule frame and are undone on the way back.
 */

import { constantValue } from "../ast/constant-value.js";
import type {
  Body,
  CallTerm,
  EveryExpr,
  Expr,
  RefTerm,
  SomeIn,
  TemplateTerm,
  Term,
  WithModifier,
} from "../ast/nodes.js";
import { collectionTooLarge, RegoError } from "../errors.js";
import { formatValue } from "../value/format.js";
import { equal, RegoObject, RegoSet, type Value } from "../value/value.js";
import { evalBodyFlat, FLAT_BODY_DEPTH } from "./flat-body.js";
import type { Canceller, EvalTracer, QueryState } from "./state.js";
import { forEachElement, indexValue } from "./values.js";

/** Bindings of one rule frame. */
export type Env = Map<string, Value>;
/** A continuation: returns true to stop enumerating. */
export type K = () => boolean;
/** A continuation receiving a value. */
export type VK = (v: Value) => boolean;

/** The error location of a node. */
export function locOf(t: { loc: { file: string; row: number; col: number } }) {
  return { file: t.loc.file, row: t.loc.row, col: t.loc.col };
}

/** Value pairs of two object terms with the same constant keys; undefined otherwise. */
function objectPairs(a: [Term, Term][], b: [Term, Term][]): [Term, Term][] | undefined {
  if (a.length !== b.length) return undefined;
  const out: [Term, Term][] = [];
  for (const [ka, va] of a) {
    const ca = constantValue(ka);
    if (ca === undefined) return undefined;
    const match = b.find(([kb]) => {
      const cb = constantValue(kb);
      return cb !== undefined && equal(ca, cb);
    });
    if (!match) return undefined;
    out.push([va, match[1]]);
  }
  return out;
}

/**
 * What terms need from the rest of the evaluator: documents under `data`, calls and `with`.
 * The evaluator's facade implements it (evaluator.ts).
 */
export interface TermHooks {
  /** Walks `data.<path...>` from the root, through rules and base documents. */
  evalDataRef(path: Term[], env: Env, k: VK): boolean;
  /** The whole `data` document. */
  dataRoot(): Value | undefined;
  /** Calls a function or builtin by name; `k` once per result. */
  evalCall(t: CallTerm, env: Env, k: VK): boolean;
  /** Evaluates `inner` with the `with` modifiers in effect; `k` runs without them. */
  evalWith(withs: WithModifier[], env: Env, inner: (k: K) => boolean, k: K): boolean;
}

/** Bodies, expressions, terms and unification. */
export class TermEvaluator {
  /** Bodies being evaluated, nested one inside the next (each continuation adds one). */
  bodyDepth = 0;
  /** Calls whose arguments are being evaluated, one inside the next (counted by calls.ts). */
  callNesting = 0;
  /** Explain, coverage and profiling; undefined (one check per expression) when off. */
  readonly tracer: EvalTracer | undefined;
  readonly cancel: Canceller;
  /** Most elements one collection may have; comprehensions past it abort the query. */
  readonly maxCollectionSize: number;

  constructor(
    private readonly state: QueryState,
    private readonly hooks: TermHooks,
  ) {
    // Copied: read once per expression, they never change during a query.
    this.tracer = state.tracer;
    this.cancel = state.cancel;
    this.maxCollectionSize = state.maxCollectionSize;
  }

  /** Evaluates a whole query body (with query events when traced). */
  evalQuery(body: Body, env: Env, k: K): boolean {
    if (this.tracer) return this.tracer.query(body, k, (k2) => this.evalBody(body, 0, env, k2));
    return this.evalBody(body, 0, env, k);
  }

  evalBody(body: Body, i: number, env: Env, k: K): boolean {
    if (i === body.length) return k();
    if (this.bodyDepth > FLAT_BODY_DEPTH) {
      // Deep already (a long body or a long chain of rules): no frame per expression.
      return evalBodyFlat(
        body,
        i,
        env,
        k,
        (e, env2, k2) => this.evalExpr(e, env2, k2),
        this.maxCollectionSize,
        (n) => this.tooLarge("expression solutions", n),
      );
    }
    this.bodyDepth++;
    // No finally: an exception aborts the whole query, and this evaluator with it.
    const stop = this.evalExpr(body[i] as Expr, env, () => this.evalBody(body, i + 1, env, k));
    this.bodyDepth--;
    return stop;
  }

  evalExpr(e: Expr, env: Env, k: K): boolean {
    if (this.cancel.active) this.cancel.check();
    if (this.tracer) return this.tracer.expr(e, k, (k2) => this.evalExprUntraced(e, env, k2));
    if (e.with.length > 0)
      return this.hooks.evalWith(e.with, env, (k2) => this.evalNegatable(e, env, k2), k);
    return this.evalNegatable(e, env, k);
  }

  /** evalExpr's work, for the tracer to wrap (kept out of the untraced path's way). */
  private evalExprUntraced(e: Expr, env: Env, k: K): boolean {
    if (e.with.length > 0)
      return this.hooks.evalWith(e.with, env, (k2) => this.evalNegatable(e, env, k2), k);
    return this.evalNegatable(e, env, k);
  }

  private evalNegatable(e: Expr, env: Env, k: K): boolean {
    if (e.negated) return this.evalPositive(e, env, () => true) ? false : k();
    return this.evalPositive(e, env, k);
  }

  private evalPositive(e: Expr, env: Env, k: K): boolean {
    switch (e.type) {
      case "some":
        return k();
      case "somein":
        return this.evalSomeIn(e, env, k);
      case "every":
        return this.evalEvery(e, env, k);
      case "term":
        return this.evalTermExpr(e.term, env, k);
    }
  }

  private evalTermExpr(t: Term, env: Env, k: K): boolean {
    if (t.type === "call") {
      if ((t.name === "eq" || t.name === "assign") && t.args.length === 2) {
        return this.unify(t.args[0] as Term, t.args[1] as Term, env, k);
      }
      return this.hooks.evalCall(t, env, (v) => (v === false ? false : k()));
    }
    return this.evalTerm(t, env, (v) => (v === false ? false : k()));
  }

  private evalSomeIn(e: SomeIn, env: Env, k: K): boolean {
    return this.evalTerm(e.domain, env, (coll) =>
      forEachElement(coll, (key, value) => {
        if (!e.key) return this.unifyValue(e.value, value, env, k);
        return this.unifyValue(e.key, key, env, () => this.unifyValue(e.value, value, env, k));
      }),
    );
  }

  private evalEvery(e: EveryExpr, env: Env, k: K): boolean {
    let domainDefined = false;
    let holds = true;
    this.evalTerm(e.domain, env, (coll) => {
      domainDefined = typeof coll === "object" && coll !== null;
      forEachElement(coll, (key, value) => {
        const ok = e.key
          ? this.unifyValue(e.key, key, env, () =>
              this.unifyValue(e.value, value, env, () => this.evalBody(e.body, 0, env, () => true)),
            )
          : this.unifyValue(e.value, value, env, () => this.evalBody(e.body, 0, env, () => true));
        if (!ok) holds = false;
        return !ok;
      });
      return true;
    });
    return domainDefined && holds ? k() : false;
  }

  /** The value of a var: bound locals, then `input` and `data`. */
  varValue(name: string, env: Env): Value | undefined {
    const v = env.get(name);
    if (v !== undefined) return v;
    if (name === "input") return this.state.overrides.input;
    if (name === "data") return this.hooks.dataRoot();
    return undefined;
  }

  evalTerm(t: Term, env: Env, k: VK): boolean {
    switch (t.type) {
      case "scalar":
        return k(t.value);
      case "var": {
        const v = this.varValue(t.name, env);
        return v === undefined ? false : k(v);
      }
      case "ref":
        return this.evalRef(t, env, k);
      case "array": {
        const c = constantValue(t);
        if (c !== undefined) return k(c);
        return this.evalTerms(t.items, env, (vals) => k(vals.slice()));
      }
      case "set": {
        const c = constantValue(t);
        if (c !== undefined) return k(c);
        return this.evalTerms(t.items, env, (vals) => k(RegoSet.of(vals)));
      }
      case "object": {
        const c = constantValue(t);
        if (c !== undefined) return k(c);
        return this.evalTerms(t.entries.flat(), env, (vals) => {
          const o = new RegoObject();
          for (let i = 0; i < vals.length; i += 2) o.set(vals[i] as Value, vals[i + 1] as Value);
          return k(o);
        });
      }
      case "arraycompr": {
        const out: Value[] = [];
        this.evalBody(t.body, 0, env, () =>
          this.evalTerm(t.term, env, (v) => {
            if (out.length >= this.maxCollectionSize) throw this.tooLarge("array", out.length);
            out.push(v);
            return false;
          }),
        );
        return k(out);
      }
      case "setcompr": {
        const out = new RegoSet();
        this.evalBody(t.body, 0, env, () =>
          this.evalTerm(t.term, env, (v) => {
            out.add(v);
            if (out.size > this.maxCollectionSize) throw this.tooLarge("set", out.size - 1);
            return false;
          }),
        );
        return k(out);
      }
      case "objectcompr":
        return k(this.objectComprehension(t.key, t.value, t.body, env));
      case "call":
        return this.hooks.evalCall(t, env, k);
      case "template":
        return k(this.evalTemplate(t, env));
    }
  }

  private objectComprehension(key: Term, value: Term, body: Body, env: Env): Value {
    const out = new RegoObject();
    this.evalBody(body, 0, env, () =>
      this.evalTerm(key, env, (kv) =>
        this.evalTerm(value, env, (vv) => {
          const prev = out.get(kv);
          if (prev !== undefined && !equal(prev, vv)) {
            throw new RegoError("eval_conflict_error", "object keys must be unique", locOf(key));
          }
          out.set(kv, vv);
          if (out.size > this.maxCollectionSize) throw this.tooLarge("object", out.size - 1);
          return false;
        }),
      ),
    );
    return out;
  }

  /** The error for a comprehension growing past the size limit. */
  tooLarge(kind: string, size: number): RegoError {
    return collectionTooLarge(`${kind} comprehension`, size + 1, this.maxCollectionSize);
  }

  private evalTemplate(t: TemplateTerm, env: Env): string {
    let out = "";
    for (const part of t.parts) {
      if (typeof part === "string") {
        out += part;
        continue;
      }
      let value: Value | undefined;
      const grab = () => {
        if (part.type !== "term") return false;
        return this.evalTerm(part.term, env, (v) => {
          value = v;
          return true;
        });
      };
      if (part.with.length > 0) this.hooks.evalWith(part.with, env, grab, () => true);
      else grab();
      out +=
        value === undefined
          ? "<undefined>"
          : typeof value === "string"
            ? value
            : formatValue(value);
    }
    return out;
  }

  /** Evaluates terms left to right, calling `k` with each combination of values. */
  evalTerms(terms: Term[], env: Env, k: (vals: Value[]) => boolean): boolean {
    const deferred = terms.some(
      (t) => t.type === "var" && this.varValue(t.name, env) === undefined,
    );
    if (deferred && terms.some((t) => t.type !== "var" && t.type !== "scalar")) {
      return this.evalTermsVarsLast(terms, env, k);
    }
    const vals: Value[] = new Array(terms.length);
    const step = (i: number): boolean => {
      if (i === terms.length) return k(vals);
      const t = terms[i] as Term;
      if (t.type === "scalar") {
        vals[i] = t.value;
        return step(i + 1);
      }
      if (t.type === "var") {
        const v = this.varValue(t.name, env);
        if (v === undefined) return false;
        vals[i] = v;
        return step(i + 1);
      }
      return this.evalTerm(t, env, (v) => {
        vals[i] = v;
        return step(i + 1);
      });
    };
    return step(0);
  }

  /** Evaluates the non-var terms first: they may bind vars that other operands use. */
  private evalTermsVarsLast(terms: Term[], env: Env, k: (vals: Value[]) => boolean): boolean {
    const order = terms
      .map((_, i) => i)
      .sort((a, b) => Number(terms[a]?.type === "var") - Number(terms[b]?.type === "var"));
    const vals: Value[] = new Array(terms.length);
    const step = (j: number): boolean => {
      if (j === order.length) return k(vals);
      const i = order[j] as number;
      return this.evalTerm(terms[i] as Term, env, (v) => {
        vals[i] = v;
        return step(j + 1);
      });
    };
    return step(0);
  }

  evalRef(t: RefTerm, env: Env, k: VK): boolean {
    const head = t.head;
    if (head.type === "var") {
      if (head.name === "data" && !env.has("data")) return this.hooks.evalDataRef(t.path, env, k);
      const base = this.varValue(head.name, env);
      return base === undefined ? false : this.walkValue(base, t.path, 0, env, k);
    }
    return this.evalTerm(head, env, (v) => this.walkValue(v, t.path, 0, env, k));
  }

  /** Follows `path[i..]` into a value, iterating over unbound vars. */
  walkValue(v: Value, path: Term[], i: number, env: Env, k: VK): boolean {
    let cur = v;
    for (; i < path.length; i++) {
      const p = path[i] as Term;
      let key: Value | undefined;
      if (p.type === "scalar") key = p.value;
      else if (p.type === "var") {
        key = env.get(p.name);
        if (key === undefined) return this.iterate(cur, p.name, path, i, env, k);
      } else if (this.isPattern(p, env)) {
        const at = i;
        return forEachElement(cur, (kk, x) =>
          this.unifyValue(p, kk, env, () => this.walkValue(x, path, at + 1, env, k)),
        );
      } else {
        const at = i;
        const from = cur;
        return this.evalTerm(p, env, (kv) => {
          const next = indexValue(from, kv);
          return next === undefined ? false : this.walkValue(next, path, at + 1, env, k);
        });
      }
      const next = indexValue(cur, key);
      if (next === undefined) return false;
      cur = next;
    }
    return k(cur);
  }

  private iterate(v: Value, name: string, path: Term[], i: number, env: Env, k: VK): boolean {
    return forEachElement(v, (key, x) => {
      env.set(name, key);
      const r = this.walkValue(x, path, i + 1, env, k);
      env.delete(name);
      return r;
    });
  }

  /** True when the term has unbound vars in positions that unification binds. */
  isPattern(t: Term, env: Env): boolean {
    switch (t.type) {
      case "var":
        return this.varValue(t.name, env) === undefined;
      case "array":
        return t.items.some((x) => this.isPattern(x, env));
      case "object":
        return t.entries.some(([, x]) => this.isPattern(x, env));
      default:
        return false;
    }
  }

  /** Unifies two terms, binding vars on either side. */
  unify(a: Term, b: Term, env: Env, k: K): boolean {
    if (a.type === "var" && this.varValue(a.name, env) === undefined && !isRoot(a.name)) {
      return this.evalTerm(b, env, (v) => this.bind(a.name, v, env, k));
    }
    if (b.type === "var" && this.varValue(b.name, env) === undefined && !isRoot(b.name)) {
      return this.evalTerm(a, env, (v) => this.bind(b.name, v, env, k));
    }
    if (a.type === "array" && b.type === "array") {
      if (a.items.length !== b.items.length) return false;
      const pairs = (i: number): boolean =>
        i === a.items.length
          ? k()
          : this.unify(a.items[i] as Term, b.items[i] as Term, env, () => pairs(i + 1));
      return pairs(0);
    }
    if (a.type === "object" && b.type === "object") {
      const pairs = objectPairs(a.entries, b.entries);
      if (pairs) {
        const step = (i: number): boolean =>
          i === pairs.length
            ? k()
            : this.unify(pairs[i]?.[0] as Term, pairs[i]?.[1] as Term, env, () => step(i + 1));
        return step(0);
      }
    }
    if (this.isPattern(a, env)) return this.evalTerm(b, env, (v) => this.unifyValue(a, v, env, k));
    return this.evalTerm(a, env, (v) => this.unifyValue(b, v, env, k));
  }

  private bind(name: string, v: Value, env: Env, k: K): boolean {
    env.set(name, v);
    const r = k();
    env.delete(name);
    return r;
  }

  /** Unifies a term with a value. */
  unifyValue(t: Term, v: Value, env: Env, k: K): boolean {
    switch (t.type) {
      case "scalar":
        return equal(t.value, v) ? k() : false;
      case "var": {
        const bound = this.varValue(t.name, env);
        if (bound !== undefined) return equal(bound, v) ? k() : false;
        // An undefined `input` (no input given) is undefined, never a var to bind.
        return isRoot(t.name) ? false : this.bind(t.name, v, env, k);
      }
      case "array": {
        if (!Array.isArray(v) || v.length !== t.items.length) return false;
        const step = (i: number): boolean =>
          i === v.length
            ? k()
            : this.unifyValue(t.items[i] as Term, v[i] as Value, env, () => step(i + 1));
        return step(0);
      }
      case "object": {
        if (!(v instanceof RegoObject) || v.size !== t.entries.length) return false;
        const step = (i: number): boolean => {
          if (i === t.entries.length) return k();
          const [kt, vt] = t.entries[i] as [Term, Term];
          return this.evalTerm(kt, env, (key) => {
            const x = v.get(key);
            return x === undefined ? false : this.unifyValue(vt, x, env, () => step(i + 1));
          });
        };
        return step(0);
      }
      default:
        return this.evalTerm(t, env, (x) => (equal(x, v) ? k() : false));
    }
  }
}

/** `input` and `data`: documents, which unification never binds. */
function isRoot(name: string): boolean {
  return name === "input" || name === "data";
}
