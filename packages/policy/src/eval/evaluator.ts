/**
 * The evaluator of one query: wires its parts together and is their public face. Terms
 * (terms.ts) evaluate bodies, expressions and unification, and reach documents (documents.ts,
 * with rule values from rules.ts), calls (calls.ts) and `with` (with.ts) through TermHooks.
 */
import type { Body, CallTerm, Expr, Module, Term, WithModifier } from "../ast/nodes.js";
import type { RuleNode } from "../compile/tree.js";
import type { Value } from "../value/value.js";
import { CallEvaluator } from "./calls.js";
import { DocumentResolver } from "./documents.js";
import type { FunctionTable } from "./functions.js";
import { QueryContext } from "./query-context.js";
import { RuleEvaluator } from "./rules.js";
import { type Canceller, type EvaluatorOptions, QueryState } from "./state.js";
import { type Env, type K, TermEvaluator, type TermHooks, type VK } from "./terms.js";
import { WithEvaluator } from "./with.js";

export type { EvaluatorOptions } from "./state.js";

/** A complete evaluator for one query. */
export class Evaluator implements TermHooks {
  readonly cancel: Canceller;
  readonly maxCollectionSize: number;
  private readonly terms: TermEvaluator;
  private readonly documents: DocumentResolver;
  private readonly calls: CallEvaluator;
  private readonly withs: WithEvaluator;

  constructor(
    root: RuleNode,
    baseData: Value,
    functions: FunctionTable,
    modules: Module[],
    opts: EvaluatorOptions,
  ) {
    const state = new QueryState(opts);
    this.cancel = state.cancel;
    this.maxCollectionSize = state.maxCollectionSize;
    const terms = new TermEvaluator(state, this);
    const rules = new RuleEvaluator(state, terms);
    const ctx = new QueryContext(opts, state.cancel);
    this.terms = terms;
    this.documents = new DocumentResolver(state, root, baseData, terms, rules);
    this.calls = new CallEvaluator(state, root, functions, modules, ctx, terms, rules);
    this.withs = new WithEvaluator(state, root, functions, terms);
  }

  /** Evaluates a whole query body (with query events when traced); `k` once per solution. */
  evalQuery(body: Body, env: Env, k: K): boolean {
    return this.terms.evalQuery(body, env, k);
  }

  evalExpr(e: Expr, env: Env, k: K): boolean {
    return this.terms.evalExpr(e, env, k);
  }

  evalTerm(t: Term, env: Env, k: VK): boolean {
    return this.terms.evalTerm(t, env, k);
  }

  // ---- TermHooks: what terms reach through this facade ---------------------------------

  evalDataRef(path: Term[], env: Env, k: VK): boolean {
    return this.documents.evalDataRef(path, env, k);
  }

  dataRoot(): Value | undefined {
    return this.documents.dataRoot();
  }

  evalCall(t: CallTerm, env: Env, k: VK): boolean {
    return this.calls.evalCall(t, env, k);
  }

  evalWith(withs: WithModifier[], env: Env, inner: (k: K) => boolean, k: K): boolean {
    return this.withs.evalWith(withs, env, inner, k);
  }
}
