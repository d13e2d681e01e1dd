/**
 * Builtins that reach the network (`http.send`, `net.lookup_ip_addr`) under a synchronous
 * evaluator. A call whose answer is not known yet throws `PendingExternalCall`; the
 * asynchronous entry points (`PolicyEngine.queryAsync`/`evalRefAsync`) catch it, perform
 * the call without blocking the event loop, record its outcome here and evaluate again.
 * The rounds of one query share this object, so the clock, the memo of nondeterministic
 * builtins and every answer already fetched stay the same from one round to the next.
 */
import type { InterQueryCache } from "./http-send-cache.js";

/** A network operation a builtin needs before it can answer. */
export interface ExternalCall {
  /** Identifies the call within the query: equal requests share one answer. */
  readonly key: string;
  /** Performs it. Never rejects: failures are part of the outcome the builtin reads back. */
  perform(signal: AbortSignal): Promise<unknown>;
}

/**
 * Thrown by a builtin whose answer needs the network. Not an Error: it is a signal to the
 * round driver, never reported, and should cost nothing to throw (no stack capture).
 */
export class PendingExternalCall {
  constructor(readonly call: ExternalCall) {}
}

/** The state one asynchronous query keeps across its evaluation rounds. */
export class ExternalCalls {
  /** Outcomes of calls already performed, by call key. */
  readonly outcomes = new Map<string, unknown>();
  /** Memo of nondeterministic builtins (rand, uuid), pinned across rounds. */
  readonly memo = new Map<string, unknown>();
  /** Number of `print` messages already passed on, so a replayed round prints nothing twice. */
  private printed = 0;

  constructor(
    /** The query's clock, pinned across rounds (time.now_ns, cache expiry). */
    readonly nowNs: bigint,
    /** Responses kept between queries (http.send with `cache` or `force_cache`). */
    readonly interQuery: InterQueryCache | undefined,
    private readonly sink: (message: string) => void,
  ) {}

  /** The outcome recorded for `key`, or a pending signal for `call` when there is none. */
  outcome(call: ExternalCall): unknown {
    const found = this.outcomes.get(call.key);
    if (found === undefined) throw new PendingExternalCall(call);
    return found;
  }

  /**
   * A `print` sink for one round. Rounds replay the same evaluation up to the call that
   * stopped the previous one, so the first messages of a round were already printed.
   */
  printer(): (message: string) => void {
    let n = 0;
    return (message) => {
      n++;
      if (n <= this.printed) return;
      this.printed = n;
      this.sink(message);
    };
  }
}
