/**
 * The `with` modifier: evaluates its values, then runs the expression with the replaced
 * input, documents and functions in effect (and a fresh document cache), restoring the
 * outer ones for the rest of the query.
 */
import type { WithModifier } from "../ast/nodes.js";
import type { RuleNode } from "../compile/tree.js";
import type { Value } from "../value/value.js";
import { type FunctionTable, resolveFunction } from "./functions.js";
import type { DocCache, FunctionReplacement, Overrides, QueryState } from "./state.js";
import type { Env, K, TermEvaluator } from "./terms.js";
import { upsert } from "./values.js";
import { isReplacement, refName, targetFunctionName } from "./with-targets.js";

/** Applies `with` modifiers around an expression. */
export class WithEvaluator {
  constructor(
    private readonly state: QueryState,
    private readonly root: RuleNode,
    private readonly functions: FunctionTable,
    private readonly terms: TermEvaluator,
  ) {}

  evalWith(withs: WithModifier[], env: Env, inner: (k: K) => boolean, k: K): boolean {
    const values: (Value | FunctionReplacement)[] = [];
    const collect = (i: number): boolean => {
      if (i === withs.length) return this.runWith(withs, values, inner, k);
      const w = withs[i] as WithModifier;
      const fnRep = this.functionReplacement(w, env);
      if (fnRep) {
        values[i] = fnRep;
        return collect(i + 1);
      }
      return this.terms.evalTerm(w.value, env, (v) => {
        values[i] = v;
        return collect(i + 1);
      });
    };
    return collect(0);
  }

  /** For a `with` whose target is a function: what replaces it. */
  private functionReplacement(w: WithModifier, env: Env): FunctionReplacement | undefined {
    const name = targetFunctionName(w.target, this.root);
    if (!name) return undefined;
    const v = w.value;
    const valueName =
      v.type === "var" && !env.has(v.name) ? v.name : v.type === "ref" ? refName(v) : undefined;
    if (valueName && resolveFunction(this.functions, this.root, valueName)) {
      return { kind: "func", name: valueName };
    }
    let value: Value | undefined;
    this.terms.evalTerm(v, env, (x) => {
      value = x;
      return true;
    });
    return value === undefined ? undefined : { kind: "value", value };
  }

  private runWith(
    withs: WithModifier[],
    values: (Value | FunctionReplacement)[],
    inner: (k: K) => boolean,
    k: K,
  ): boolean {
    const prev = this.state.overrides;
    const data = [...prev.data];
    const funcs = new Map(prev.funcs);
    const next: Overrides = { input: prev.input, data, funcs };
    withs.forEach((w, i) => {
      const v = values[i] as Value | FunctionReplacement;
      const fname = targetFunctionName(w.target, this.root);
      if (fname && isReplacement(v)) {
        funcs.set(fname, v);
        return;
      }
      const target = w.target;
      const head = target.type === "ref" ? target.head : target;
      const path =
        target.type === "ref" ? target.path.map((p) => (p.type === "scalar" ? p.value : null)) : [];
      if (head.type === "var" && head.name === "input") {
        next.input = upsert(next.input, path as Value[], v as Value);
      } else if (head.type === "var" && head.name === "data") {
        data.push({ path: path.map(String), value: v as Value });
      }
    });
    const prevCache = this.state.cache;
    const nextCache: DocCache = new Map();
    this.state.overrides = next;
    this.state.cache = nextCache;
    try {
      return inner(() => {
        this.state.overrides = prev;
        this.state.cache = prevCache;
        try {
          return k();
        } finally {
          this.state.overrides = next;
          this.state.cache = nextCache;
        }
      });
    } finally {
      this.state.overrides = prev;
      this.state.cache = prevCache;
    }
  }
}
