/**
 * Documents: walks `data` through base documents and rules, applies `with` replacements of
 * documents, and caches virtual documents per query (their values come from rules.ts),
 * computing a deep rule's dependencies first.
 */

import { constantValue } from "../ast/constant-value.js";
import type { Term } from "../ast/nodes.js";
import type { RuleNode } from "../compile/tree.js";
import { RegoError } from "../errors.js";
import { compare, RegoObject, type Value } from "../value/value.js";
import { dependencyOrder, staticDeps, WARM_RULE_DEPTH } from "./dependency-order.js";
import type { RuleEvaluator } from "./rules.js";
import { inProgress, type QueryState } from "./state.js";
import type { Env, TermEvaluator, VK } from "./terms.js";
import { indexValue, upsert } from "./values.js";

/** Evaluation of `data`: base documents, overrides and virtual documents. */
export class DocumentResolver {
  /** Rule documents being computed, one inside the next. */
  private ruleDepth = 0;
  /** True while dependencies are computed first (that never nests). */
  private warming = false;

  constructor(
    private readonly state: QueryState,
    private readonly root: RuleNode,
    private readonly baseData: Value,
    private readonly terms: TermEvaluator,
    private readonly rules: RuleEvaluator,
  ) {}

  // ---- data ---------------------------------------------------------------------------

  dataRoot(): Value | undefined {
    return this.materialize(this.root, this.baseData, []);
  }

  evalDataRef(path: Term[], env: Env, k: VK): boolean {
    return this.walkData(this.root, this.baseData, [], path, 0, env, k);
  }

  private overrideAt(prefix: readonly string[]): Value | undefined {
    const ov = this.state.overrides.data;
    for (let j = ov.length - 1; j >= 0; j--) {
      const o = ov[j] as { path: string[]; value: Value };
      if (o.path.length === prefix.length && o.path.every((p, i) => p === prefix[i])) {
        return this.patchBelow(o.value, prefix, j + 1);
      }
    }
    return undefined;
  }

  private hasOverrideBelow(prefix: readonly string[]): boolean {
    return this.state.overrides.data.some(
      (o) => o.path.length >= prefix.length && prefix.every((p, i) => p === o.path[i]),
    );
  }

  /** Applies overrides (from position `from` on) strictly below `prefix` to `value`. */
  private patchBelow(value: Value, prefix: readonly string[], from = 0): Value {
    let out = value;
    const ov = this.state.overrides.data;
    for (let j = from; j < ov.length; j++) {
      const o = ov[j] as { path: string[]; value: Value };
      if (o.path.length > prefix.length && prefix.every((p, i) => p === o.path[i])) {
        out = upsert(out, o.path.slice(prefix.length), o.value);
      }
    }
    return out;
  }

  private walkData(
    node: RuleNode | undefined,
    base: Value | undefined,
    prefix: readonly string[],
    path: Term[],
    i: number,
    env: Env,
    k: VK,
  ): boolean {
    if (this.state.overrides.data.length > 0) {
      const o = this.overrideAt(prefix);
      if (o !== undefined) return this.terms.walkValue(o, path, i, env, k);
      if (!node && !this.hasOverrideBelow(prefix)) {
        return base === undefined ? false : this.terms.walkValue(base, path, i, env, k);
      }
    } else if (!node && !numericKeyInto(base, path[i])) {
      return base === undefined ? false : this.terms.walkValue(base, path, i, env, k);
    }
    if (node?.hasRules) {
      if (node.isFunction) {
        const v = this.functionDocument(node);
        return v === undefined ? false : this.terms.walkValue(v, path, i, env, k);
      }
      if (base === undefined && i < path.length && this.keyedLookupApplies(node)) {
        const key = this.groundKey(path[i] as Term, env);
        if (key !== undefined) {
          const v = this.rules.keyedValue(node, key);
          return v === undefined ? false : this.terms.walkValue(v, path, i + 1, env, k);
        }
      }
      const v = base !== undefined ? base : this.nodeValue(node);
      return v === undefined ? false : this.terms.walkValue(v, path, i, env, k);
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
    return this.terms.evalTerm(p, env, step);
  }

  private dataKeys(
    node: RuleNode | undefined,
    base: Value | undefined,
    prefix: readonly string[],
  ): Value[] {
    const keys = new Set<Value>();
    if (base instanceof RegoObject) for (const key of base.keys()) keys.add(key);
    if (node) for (const key of node.children.keys()) keys.add(key);
    for (const o of this.state.overrides.data) {
      if (o.path.length > prefix.length && prefix.every((p, i) => p === o.path[i])) {
        keys.add(o.path[prefix.length] as string);
      }
    }
    return [...keys].sort(compare);
  }

  /** The full value of a position in `data`: base document, rules and overrides merged. */
  private materialize(
    node: RuleNode | undefined,
    base: Value | undefined,
    prefix: readonly string[],
  ): Value | undefined {
    if (this.state.overrides.data.length > 0) {
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
  private functionDocument(node: RuleNode): Value | undefined {
    return node.arity === 0 ? this.rules.callUser(node, []) : undefined;
  }

  /** The value of a rule document, cached until the next `with`; recursion is an error. */
  private nodeValue(node: RuleNode): Value | undefined {
    const cached = this.state.cache.get(node);
    if (cached === inProgress) {
      throw new RegoError("rego_recursion_error", `rule ${node.dottedPath} is recursive`);
    }
    if (cached !== undefined || this.state.cache.has(node)) return cached as Value | undefined;
    if (this.ruleDepth >= WARM_RULE_DEPTH && !this.warming) this.warmDependencies(node);
    this.state.cache.set(node, inProgress);
    this.ruleDepth++;
    let v: Value | undefined;
    try {
      if (node.isComplete) v = this.rules.completeValue(node);
      else if (node.isMultiSet) v = this.rules.setValue(node);
      else {
        const out = new RegoObject();
        this.mergeChildren(node, this.baseAt(node.path), out);
        v = this.rules.objectValue(node, out);
      }
      if (v !== undefined) v = this.patchBelow(v, node.path);
    } catch (e) {
      this.ruleDepth--;
      this.state.cache.delete(node);
      throw e;
    }
    this.ruleDepth--;
    this.state.cache.set(node, v);
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
      const order = dependencyOrder(this.root, node, (n) => this.state.cache.has(n));
      // Failed nodes, and those depending on one: left to lazy evaluation, or every rule
      // above a failure would evaluate the chain below it again (quadratic work).
      const failed = new Set<RuleNode>();
      for (const dep of order) {
        if (this.state.cache.has(dep)) continue;
        const blocked = staticDeps(this.root, dep).some((d) => failed.has(d));
        if (blocked) failed.add(dep);
        if (blocked || dep.isFunction) continue;
        const depths = [this.terms.bodyDepth, this.terms.callNesting];
        try {
          this.nodeValue(dep);
        } catch (e) {
          if (e instanceof RegoError && e.code === "eval_cancel_error") throw e;
          failed.add(dep);
          // Counters are not unwound by an exception (it normally ends the query).
          [this.terms.bodyDepth, this.terms.callNesting] = depths as [number, number];
        }
      }
    } finally {
      this.warming = false;
    }
  }

  /**
   * `p[key]` on a partial set or object whose value is not cached yet: only the rules that
   * can produce `key` are run, with the key bound before their bodies.
   */
  private keyedLookupApplies(node: RuleNode): boolean {
    if (node.isComplete || this.state.cache.has(node) || node.children.size > 0) return false;
    if (node.keyedDefaults.length > 0) return false;
    if (this.state.overrides.data.length > 0) return false;
    return node.isMultiSet || node.rules.every((r) => r.dynamic.length > 0);
  }

  /** The value of a ref key when it is known without enumeration. */
  private groundKey(p: Term, env: Env): Value | undefined {
    if (p.type === "scalar") return p.value;
    if (p.type === "var") return env.get(p.name);
    const c = constantValue(p);
    return c;
  }

  /** The base document at `path`, without overrides. */
  private baseAt(path: readonly string[]): Value | undefined {
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
