/**
 * Documents: walks `data` through base documents and rules, applies `with` replacements of
 * documents, and computes virtual documents (complete, partial set, partial object, ref
 * heads) with conflict detection and a per-query cache.
 */

import { constantValue } from "../ast/constant-value.js";
import type { Module, Rule, Term } from "../ast/nodes.js";
import type { ExternalCalls } from "../builtins/external-calls.js";
import type { BuiltinContext } from "../builtins/registry-types.js";
import type { CompiledRule, RuleNode } from "../compile/tree.js";
import { collectionTooLarge, RegoError } from "../errors.js";
import { compare, equal, RegoObject, RegoSet, type Value } from "../value/value.js";
import { dependencyOrder, staticDeps, WARM_RULE_DEPTH } from "./dependency-order.js";
import type { FunctionTable } from "./functions.js";
import {
  Canceller,
  type DocCache,
  type EvalTracer,
  inProgress,
  NO_DATA_OVERRIDES,
  NO_FUNCTION_OVERRIDES,
  type Overrides,
} from "./state.js";
import { type Env, type K, locOf, TermEvaluator, type VK } from "./terms.js";
import { indexValue, upsert } from "./values.js";

/** Per-query settings of an evaluator. */
export interface EvaluatorOptions {
  input?: Value;
  strict: boolean;
  print: (message: string) => void;
  /** Receives explain, coverage and profile events; absent when none was asked for. */
  tracer?: EvalTracer;
  /** Fixed query time; when absent, the wall clock at the evaluator's creation. */
  nowNs?: bigint;
  deadline?: number;
  signal?: AbortSignal;
  /** Most elements one collection may have (REGO_MAX_COLLECTION_SIZE). */
  maxCollectionSize: number;
  /** Network answers and pinned state of an asynchronous query (see builtins/external-calls.ts). */
  external?: ExternalCalls;
}

/**
 * The builtin context of one query. The clock is read when the query starts, but turned
 * into nanoseconds (a bigint) only if a builtin asks: most queries never do.
 */
class QueryContext implements BuiltinContext {
  private memo: Map<string, unknown> | undefined;
  readonly print: (message: string) => void;
  readonly strict: boolean;
  readonly maxCollectionSize: number;
  readonly trace: ((note: string) => void) | undefined;
  readonly external: ExternalCalls | undefined;
  private readonly startMs: number;
  private fixedNs: bigint | undefined;

  constructor(
    opts: EvaluatorOptions,
    private readonly cancel: Canceller,
  ) {
    this.print = opts.print;
    this.strict = opts.strict;
    this.fixedNs = opts.nowNs;
    this.maxCollectionSize = opts.maxCollectionSize;
    const tracer = opts.tracer;
    this.trace = tracer ? (note) => tracer.note(note) : undefined;
    this.startMs = Date.now();
    this.external = opts.external;
    // The rounds of an asynchronous query share one memo: rand and uuid answer alike.
    this.memo = opts.external?.memo;
  }

  checkCancel(): void {
    if (this.cancel.active) this.cancel.check();
  }

  /** Made on first use: few queries call a builtin that memoises. */
  get cache(): Map<string, unknown> {
    if (this.memo === undefined) this.memo = new Map();
    return this.memo;
  }

  get nowNs(): bigint {
    if (this.fixedNs === undefined) this.fixedNs = BigInt(this.startMs) * 1_000_000n;
    return this.fixedNs;
  }
}

const TRUE: Term = {
  type: "scalar",
  value: true,
  loc: { file: "", row: 0, col: 0, start: 0, end: 0 },
};

/** An eval_conflict_error located at the rule that produced the second value. */
export function conflict(rule: Rule, message: string): RegoError {
  return new RegoError("eval_conflict_error", message, locOf(rule));
}

/** Evaluation of `data`: base documents, overrides and virtual documents. */
export abstract class DocumentEvaluator extends TermEvaluator {
  overrides: Overrides;
  cache: DocCache = new Map();
  readonly cancel: Canceller;
  readonly maxCollectionSize: number;
  readonly ctx: BuiltinContext;
  /** The rule whose body is being evaluated, for rego.metadata.*. */
  currentRule: Rule | undefined;
  /** Rule documents being computed, one inside the next. */
  private ruleDepth = 0;
  /** True while dependencies are computed first (that never nests). */
  private warming = false;

  constructor(
    readonly root: RuleNode,
    readonly baseData: Value,
    readonly functions: FunctionTable,
    readonly modules: Module[],
    opts: EvaluatorOptions,
  ) {
    super();
    this.overrides = { input: opts.input, data: NO_DATA_OVERRIDES, funcs: NO_FUNCTION_OVERRIDES };
    this.cancel =
      opts.deadline === undefined && opts.signal === undefined
        ? Canceller.NONE
        : new Canceller(opts.deadline, opts.signal);
    this.maxCollectionSize = opts.maxCollectionSize;
    this.ctx = new QueryContext(opts, this.cancel);
    this.tracer = opts.tracer;
  }

  // ---- data ---------------------------------------------------------------------------

  dataRoot(): Value | undefined {
    return this.materialize(this.root, this.baseData, []);
  }

  evalDataRef(path: Term[], env: Env, k: VK): boolean {
    return this.walkData(this.root, this.baseData, [], path, 0, env, k);
  }

  protected overrideAt(prefix: readonly string[]): Value | undefined {
    const ov = this.overrides.data;
    for (let j = ov.length - 1; j >= 0; j--) {
      const o = ov[j] as { path: string[]; value: Value };
      if (o.path.length === prefix.length && o.path.every((p, i) => p === prefix[i])) {
        return this.patchBelow(o.value, prefix, j + 1);
      }
    }
    return undefined;
  }

  protected hasOverrideBelow(prefix: readonly string[]): boolean {
    return this.overrides.data.some(
      (o) => o.path.length >= prefix.length && prefix.every((p, i) => p === o.path[i]),
    );
  }

  /** Applies overrides (from position `from` on) strictly below `prefix` to `value`. */
  protected patchBelow(value: Value, prefix: readonly string[], from = 0): Value {
    let out = value;
    const ov = this.overrides.data;
    for (let j = from; j < ov.length; j++) {
      const o = ov[j] as { path: string[]; value: Value };
      if (o.path.length > prefix.length && prefix.every((p, i) => p === o.path[i])) {
        out = upsert(out, o.path.slice(prefix.length), o.value);
      }
    }
    return out;
  }

  protected walkData(
    node: RuleNode | undefined,
    base: Value | undefined,
    prefix: readonly string[],
    path: Term[],
    i: number,
    env: Env,
    k: VK,
  ): boolean {
    if (this.overrides.data.length > 0) {
      const o = this.overrideAt(prefix);
      if (o !== undefined) return this.walkValue(o, path, i, env, k);
      if (!node && !this.hasOverrideBelow(prefix)) {
        return base === undefined ? false : this.walkValue(base, path, i, env, k);
      }
    } else if (!node && !numericKeyInto(base, path[i])) {
      return base === undefined ? false : this.walkValue(base, path, i, env, k);
    }
    if (node?.hasRules) {
      if (node.isFunction) {
        const v = this.functionDocument(node);
        return v === undefined ? false : this.walkValue(v, path, i, env, k);
      }
      if (base === undefined && i < path.length && this.keyedLookupApplies(node)) {
        const key = this.groundKey(path[i] as Term, env);
        if (key !== undefined) {
          const v = this.keyedValue(node, key);
          return v === undefined ? false : this.walkValue(v, path, i + 1, env, k);
        }
      }
      const v = base !== undefined ? base : this.nodeValue(node);
      return v === undefined ? false : this.walkValue(v, path, i, env, k);
    }
    if (i === path.length) {
      const v = this.materialize(node, base, prefix);
      return v === undefined ? false : k(v);
    }
    const p = path[i] as Term;
    const step = (key: Value): boolean => {
      const name =
        typeof key === "string" ? key : typeof key === "number" ? String(key) : undefined;
      const child = name === undefined ? undefined : node?.children.get(name);
      let childBase = base === undefined ? undefined : indexValue(base, key);
      if (childBase === undefined && name !== undefined && base instanceof RegoObject) {
        childBase = base.get(name);
      }
      const childPrefix = child ? child.path : [...prefix, String(key)];
      return this.walkData(child, childBase, childPrefix, path, i + 1, env, k);
    };
    if (p.type === "scalar") return step(p.value);
    if (p.type === "var" && env.get(p.name) === undefined) {
      const name = p.name;
      return this.dataKeys(node, base, prefix).some((key) => {
        env.set(name, key);
        const r = step(key);
        env.delete(name);
        return r;
      });
    }
    return this.evalTerm(p, env, step);
  }

  protected dataKeys(
    node: RuleNode | undefined,
    base: Value | undefined,
    prefix: readonly string[],
  ): Value[] {
    const keys = new Set<Value>();
    if (base instanceof RegoObject) for (const key of base.keys()) keys.add(key);
    if (node) for (const key of node.children.keys()) keys.add(key);
    for (const o of this.overrides.data) {
      if (o.path.length > prefix.length && prefix.every((p, i) => p === o.path[i])) {
        keys.add(o.path[prefix.length] as string);
      }
    }
    return [...keys].sort(compare);
  }

  /** The full value of a position in `data`: base document, rules and overrides merged. */
  protected materialize(
    node: RuleNode | undefined,
    base: Value | undefined,
    prefix: readonly string[],
  ): Value | undefined {
    if (this.overrides.data.length > 0) {
      const o = this.overrideAt(prefix);
      if (o !== undefined) return o;
    }
    if (node?.hasRules) {
      if (node.isFunction) return this.functionDocument(node);
      return base !== undefined ? base : this.nodeValue(node);
    }
    if (
      !node ||
      (node.children.size === 0 && base !== undefined && !(base instanceof RegoObject))
    ) {
      return base === undefined ? undefined : this.patchBelow(base, prefix);
    }
    const out = new RegoObject();
    this.mergeChildren(node, base, out);
    return this.patchBelow(out, prefix);
  }

  /** Copies `base` (when an object) into `out`, then each child document over it. */
  private mergeChildren(node: RuleNode, base: Value | undefined, out: RegoObject): void {
    if (base instanceof RegoObject) for (const [key, v] of base.entries()) out.set(key, v);
    for (const [key, child] of node.children) {
      const v = this.materialize(
        child,
        base === undefined ? undefined : indexValue(base, key),
        child.path,
      );
      if (v !== undefined) out.set(key, v);
    }
  }

  // ---- virtual documents --------------------------------------------------------------

  /** A function as a document: a function of no operands is its value (`f()`), as in OPA. */
  protected functionDocument(node: RuleNode): Value | undefined {
    return node.arity === 0 ? this.callUser(node, []) : undefined;
  }

  protected abstract callUser(node: RuleNode, args: Value[]): Value | undefined;

  nodeValue(node: RuleNode): Value | undefined {
    const cached = this.cache.get(node);
    if (cached === inProgress) {
      throw new RegoError("rego_recursion_error", `rule ${node.dottedPath} is recursive`);
    }
    if (cached !== undefined || this.cache.has(node)) return cached as Value | undefined;
    if (this.ruleDepth >= WARM_RULE_DEPTH && !this.warming) this.warmDependencies(node);
    this.cache.set(node, inProgress);
    this.ruleDepth++;
    let v: Value | undefined;
    try {
      if (node.isComplete) v = this.completeValue(node);
      else if (node.isMultiSet) v = this.setValue(node);
      else v = this.objectValue(node);
      if (v !== undefined) v = this.patchBelow(v, node.path);
    } catch (e) {
      this.ruleDepth--;
      this.cache.delete(node);
      throw e;
    }
    this.ruleDepth--;
    this.cache.set(node, v);
    return v;
  }

  /**
   * Computes the documents `node` depends on, deepest first, so that no chain of rules
   * nests deeper than a level or two. A failure here is dropped: the rule may never have
   * reached that document, and if it does, evaluating it again raises the failure there.
   */
  private warmDependencies(node: RuleNode): void {
    this.warming = true;
    try {
      const order = dependencyOrder(this.root, node, (n) => this.cache.has(n));
      // Failed nodes, and those depending on one: left to lazy evaluation, or every rule
      // above a failure would evaluate the chain below it again (quadratic work).
      const failed = new Set<RuleNode>();
      for (const dep of order) {
        if (this.cache.has(dep)) continue;
        const blocked = staticDeps(this.root, dep).some((d) => failed.has(d));
        if (blocked) failed.add(dep);
        if (blocked || dep.isFunction) continue;
        const depths = [this.bodyDepth, this.callNesting];
        try {
          this.nodeValue(dep);
        } catch (e) {
          if (e instanceof RegoError && e.code === "eval_cancel_error") throw e;
          failed.add(dep);
          // Counters are not unwound by an exception (it normally ends the query).
          [this.bodyDepth, this.callNesting] = depths as [number, number];
        }
      }
    } finally {
      this.warming = false;
    }
  }

  protected candidates(node: RuleNode): CompiledRule[] {
    if (!node.index) return node.rules;
    let v: Value | undefined = this.overrides.input;
    for (const key of node.index.inputPath) {
      if (v === undefined) break;
      v = indexValue(v, key);
    }
    return node.index.candidates(v);
  }

  /**
   * Runs a rule body (then its else chain while undefined), calling `emit` with the rule's
   * env for each solution. Stops early when `emit` returns true.
   */
  protected evalRuleBodies(cr: CompiledRule, env: Env, emit: (env: Env) => boolean): boolean {
    let found = false;
    const outerRule = this.currentRule;
    this.currentRule = cr.rule;
    const tracer = this.tracer;
    if (tracer) tracer.enterRule(cr.rule);
    const stop = this.evalBody(cr.rule.body, 0, env, () => {
      found = true;
      if (!tracer) return emit(env);
      tracer.exitRule(cr.rule);
      const r = emit(env);
      if (!r) tracer.redoRule(cr.rule);
      return r;
    });
    if (tracer) tracer.leaveRule(cr.rule);
    this.currentRule = outerRule;
    if (!found && cr.elseRule) return this.evalRuleBodies(cr.elseRule, env, emit);
    return stop;
  }

  protected completeValue(node: RuleNode): Value | undefined {
    let result: Value | undefined;
    for (const cr of this.candidates(node)) {
      this.evalRuleChain(cr, new Map(), (v, rule) => {
        if (result === undefined) result = v;
        else if (!equal(result, v))
          throw conflict(rule, "complete rules must not produce multiple outputs");
      });
    }
    if (result === undefined && node.defaultRule) result = this.defaultValue(node.defaultRule);
    return result;
  }

  /** Evaluates a single-value rule (and else chain), emitting each value it produces. */
  protected evalRuleChain(
    cr: CompiledRule,
    env: Env,
    emit: (v: Value, rule: Rule) => void,
    guard: (k: K) => boolean = (k) => k(),
  ): void {
    let found = false;
    const valueTerm = cr.rule.value ?? TRUE;
    const constant = constantValue(valueTerm);
    const outerRule = this.currentRule;
    this.currentRule = cr.rule;
    const tracer = this.tracer;
    if (tracer) tracer.enterRule(cr.rule);
    this.evalBody(cr.rule.body, 0, env, () =>
      guard(() => {
        if (constant !== undefined) {
          found = true;
          if (tracer) tracer.exitRule(cr.rule, true);
          emit(constant, cr.rule);
          return true;
        }
        // A value that is undefined fails the body, as in OPA (which moves the head's refs
        // into the body): the else chain is tried next.
        this.evalTerm(valueTerm, env, (v) => {
          found = true;
          emit(v, cr.rule);
          return false;
        });
        if (tracer) {
          tracer.exitRule(cr.rule);
          tracer.redoRule(cr.rule);
        }
        return false;
      }),
    );
    if (tracer) tracer.leaveRule(cr.rule);
    this.currentRule = outerRule;
    if (!found && cr.elseRule) this.evalRuleChain(cr.elseRule, env, emit, guard);
  }

  protected defaultValue(rule: Rule): Value | undefined {
    if (this.tracer) {
      this.tracer.enterRule(rule);
      this.tracer.exitRule(rule);
      this.tracer.leaveRule(rule);
    }
    let out: Value | undefined;
    this.evalTerm(rule.value ?? TRUE, new Map(), (v) => {
      out = v;
      return true;
    });
    return out;
  }

  /**
   * `p[key]` on a partial set or object whose value is not cached yet: only the rules that
   * can produce `key` are run, with the key bound before their bodies.
   */
  private keyedLookupApplies(node: RuleNode): boolean {
    if (node.isComplete || this.cache.has(node) || node.children.size > 0) return false;
    if (node.keyedDefaults.length > 0) return false;
    if (this.overrides.data.length > 0) return false;
    return node.isMultiSet || node.rules.every((r) => r.dynamic.length > 0);
  }

  /** The value of a ref key when it is known without enumeration. */
  private groundKey(p: Term, env: Env): Value | undefined {
    if (p.type === "scalar") return p.value;
    if (p.type === "var") return env.get(p.name);
    const c = constantValue(p);
    return c;
  }

  private keyedValue(node: RuleNode, key: Value): Value | undefined {
    if (node.isMultiSet) {
      for (const cr of node.rules) {
        const env: Env = new Map();
        const found = this.unifyValue(cr.rule.key as Term, key, env, () =>
          this.evalRuleBodies(cr, env, () => true),
        );
        if (found) return key;
      }
      return undefined;
    }
    const out = new RegoObject();
    for (const cr of node.rules) {
      const env: Env = new Map();
      const rule = cr.rule;
      const [first, ...rest] = cr.dynamic as [Term, ...Term[]];
      this.unifyValue(first, key, env, () =>
        this.evalRuleBodies(cr, env, () =>
          this.evalTerms(rest, env, (keys) => {
            const valueTerm = rule.kind === "multi" ? (rule.key as Term) : (rule.value ?? TRUE);
            return this.evalTerm(valueTerm, env, (v) => {
              insertPath(out, [key, ...keys], v, rule.kind === "multi", rule);
              return false;
            });
          }),
        ),
      );
    }
    return out.get(key);
  }

  protected setValue(node: RuleNode): Value {
    const out = new RegoSet();
    for (const cr of this.candidates(node)) {
      const env: Env = new Map();
      this.evalRuleBodies(cr, env, () =>
        this.evalTerm(cr.rule.key as Term, env, (v) => {
          out.add(v);
          if (out.size > this.maxCollectionSize) throw this.ruleTooLarge(node, out.size);
          return false;
        }),
      );
    }
    return out;
  }

  private ruleTooLarge(node: RuleNode, size: number): RegoError {
    return collectionTooLarge(`rule ${node.dottedPath}`, size, this.maxCollectionSize);
  }

  /** Partial objects and ref heads with dynamic keys, merged with child documents. */
  protected objectValue(node: RuleNode): Value | undefined {
    const out = new RegoObject();
    const base = this.baseAt(node.path);
    this.mergeChildren(node, base, out);
    for (const cr of this.candidates(node)) {
      const env: Env = new Map();
      const rule = cr.rule;
      this.evalRuleBodies(cr, env, () =>
        this.evalTerms(cr.dynamic, env, (keys) => {
          if (rule.kind === "multi") {
            return this.evalTerm(rule.key as Term, env, (v) => {
              insertPath(out, keys, v, true, rule);
              return false;
            });
          }
          return this.evalTerm(rule.value ?? TRUE, env, (v) => {
            insertPath(out, keys, v, false, rule);
            return false;
          });
        }),
      );
    }
    for (const d of node.keyedDefaults) {
      if (!hasPath(out, d.keys))
        insertPath(out, d.keys, this.defaultValue(d.rule) ?? true, false, d.rule);
    }
    return out;
  }

  protected baseAt(path: readonly string[]): Value | undefined {
    let v: Value | undefined = this.baseData;
    for (const key of path) {
      if (v === undefined) return undefined;
      v = indexValue(v, key);
    }
    return v;
  }
}

function numericKeyInto(base: Value | undefined, p: Term | undefined): boolean {
  return base instanceof RegoObject && p?.type === "scalar" && typeof p.value === "number";
}

/** Inserts `value` at `keys` in a nested object being built; conflicts are errors. */
/** True when `keys` lead to a value inside `obj`. */
function hasPath(obj: RegoObject, keys: Value[]): boolean {
  let v: Value | undefined = obj;
  for (const key of keys) {
    v = v === undefined ? undefined : indexValue(v, key);
  }
  return v !== undefined;
}

function insertPath(
  out: RegoObject,
  keys: Value[],
  value: Value,
  multi: boolean,
  rule: Rule,
): void {
  let obj = out;
  for (let i = 0; i < keys.length - 1; i++) {
    const key = keys[i] as Value;
    let next = obj.get(key);
    if (next === undefined) {
      next = new RegoObject();
      obj.set(key, next);
    } else if (!(next instanceof RegoObject)) {
      throw conflict(rule, "object keys must be unique");
    }
    obj = next;
  }
  const last = keys[keys.length - 1];
  if (last === undefined) {
    throw conflict(rule, "object keys must be unique");
  }
  if (multi) {
    let set = obj.get(last);
    if (set === undefined) {
      set = new RegoSet();
      obj.set(last, set);
    }
    if (!(set instanceof RegoSet)) throw conflict(rule, "object keys must be unique");
    set.add(value);
    return;
  }
  const prev = obj.get(last);
  if (prev !== undefined && !equal(prev, value)) throw conflict(rule, "object keys must be unique");
  obj.set(last, value);
}
