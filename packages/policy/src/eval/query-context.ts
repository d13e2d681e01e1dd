/** The builtin context of one query: print, strictness, the clock, the memo and cancellation. */

import type { ExternalCalls } from "../builtins/external-calls.js";
import type { BuiltinContext } from "../builtins/registry-types.js";
import type { Canceller, EvaluatorOptions } from "./state.js";

/**
 * The builtin context of one query. The clock is read when the query starts, but turned
 * into nanoseconds (a bigint) only if a builtin asks: most queries never do.
 */
export class QueryContext implements BuiltinContext {
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
