/**
 * Per-query evaluation state: the settings, what `with` currently replaces, the virtual
 * document cache, the tracer and the cancellation bound.
 */
import type { Body, Expr, Rule } from "../ast/nodes.js";
import type { ExternalCalls } from "../builtins/external-calls.js";
import type { RuleNode } from "../compile/tree.js";
import { RegoError } from "../errors.js";
import type { Value } from "../value/value.js";

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
  /** Network answers and pinned state of an asynchronous query (see external-calls.ts). */
  external?: ExternalCalls;
}

/** What a `with` on a function or builtin substitutes: a constant or another function. */
export type FunctionReplacement = { kind: "value"; value: Value } | { kind: "func"; name: string };

/** The replacements in effect; a new one is made for each `with` and dropped after it. */
export interface Overrides {
  input: Value | undefined;
  /** Replaced documents under `data`, oldest first. Copied, never changed in place. */
  data: readonly { path: string[]; value: Value }[];
  /** Replaced functions and builtins by full name. Copied, never changed in place. */
  funcs: ReadonlyMap<string, FunctionReplacement>;
}

/** The replacements of a query without `with`: shared, as nothing changes them in place. */
export const NO_DATA_OVERRIDES: Overrides["data"] = Object.freeze([]);
export const NO_FUNCTION_OVERRIDES: Overrides["funcs"] = new Map();

/** Marks a node whose value is being computed, to catch recursion at run time. */
export const inProgress = Symbol("inProgress");

/** Virtual documents computed so far under the current overrides. */
export type DocCache = Map<RuleNode, Value | undefined | typeof inProgress>;

/** Cancellation: a deadline and an abort signal, checked every few hundred steps. */
export class Canceller {
  /** A canceller with neither deadline nor signal; `check` is never needed for it. */
  static readonly NONE = new Canceller(undefined, undefined);

  private steps = 0;
  constructor(
    private readonly deadline: number | undefined,
    private readonly signal: AbortSignal | undefined,
  ) {}

  get active(): boolean {
    return this.deadline !== undefined || this.signal !== undefined;
  }

  check(): void {
    if (++this.steps < 256) return;
    this.steps = 0;
    if (this.signal?.aborted) {
      throw new RegoError("eval_cancel_error", "caller cancelled query execution");
    }
    if (this.deadline !== undefined && Date.now() > this.deadline) {
      throw new RegoError(
        "eval_cancel_error",
        "timed out: query evaluation exceeded its time limit",
      );
    }
  }
}

/**
 * Receives evaluation events for explain, coverage, profiling and metrics. Absent unless
 * one of those was asked for: the evaluator checks for it once per expression and rule.
 */
export interface EvalTracer {
  /** Wraps a whole query: `run` evaluates it, calling its argument once per solution. */
  query(body: Body, k: () => boolean, run: (k: () => boolean) => boolean): boolean;
  /** Wraps one expression: `run` evaluates it, calling its argument once per solution. */
  expr(e: Expr, k: () => boolean, run: (k: () => boolean) => boolean): boolean;
  /** A rule body (or a default rule) starts evaluating. */
  enterRule(rule: Rule): void;
  /** A rule body produced a solution; `early` when evaluation stops at this first one. */
  exitRule(rule: Rule, early?: boolean): void;
  /** Evaluation backtracks into a rule body for another solution. */
  redoRule(rule: Rule): void;
  /** A rule body has no more solutions. */
  leaveRule(rule: Rule): void;
  /** `trace(note)` was called. */
  note(message: string): void;
}

/**
 * What the parts of one query's evaluator share: the replacements and document cache that
 * `with` swaps, the rule being evaluated, and the query's fixed bounds.
 */
export class QueryState {
  /** The replacements in effect; `with` swaps in a new object and restores the old one. */
  overrides: Overrides;
  /** Virtual documents computed under the current overrides. */
  cache: DocCache = new Map();
  /** The rule whose body is being evaluated, for rego.metadata.*. */
  currentRule: Rule | undefined = undefined;
  readonly cancel: Canceller;
  /** Most elements one collection may have; comprehensions past it abort the query. */
  readonly maxCollectionSize: number;
  /** Explain, coverage and profiling; undefined (one check per expression) when off. */
  readonly tracer: EvalTracer | undefined;

  constructor(opts: EvaluatorOptions) {
    this.overrides = { input: opts.input, data: NO_DATA_OVERRIDES, funcs: NO_FUNCTION_OVERRIDES };
    this.cancel =
      opts.deadline === undefined && opts.signal === undefined
        ? Canceller.NONE
        : new Canceller(opts.deadline, opts.signal);
    this.maxCollectionSize = opts.maxCollectionSize;
    this.tracer = opts.tracer;
  }
}
