/**
 * When the evaluation pool starts a replacement worker, and when it gives up on workers.
 *
 * A worker that had answered decisions and then dies (a crash, out of memory on one decision)
 * is replaced at once. One that dies again before answering anything is replaced after a
 * delay that doubles with each such death in a row (100 ms, 200 ms, ... up to 5 s), so a
 * worker that keeps dying never turns into a loop of thread starts and log lines.
 *
 * A worker that never showed it can evaluate (it died before building its engine, or died
 * idle without answering anything) is a start failure. After START_FAILURES_BEFORE_FALLBACK
 * of them in a row, with no worker ready, the pool evaluates on the main thread instead: the
 * cause (a preload that throws in worker threads, a module that cannot load) will not go
 * away by starting more threads.
 */

/** Start failures in a row after which decisions are evaluated on the main thread. */
export const START_FAILURES_BEFORE_FALLBACK = 5;

/** The delay before the second replacement in a row; it doubles from there. */
export const FIRST_RESTART_DELAY_MS = 100;

/** The longest delay between two replacements. */
export const MAX_RESTART_DELAY_MS = 5_000;

/**
 * The delay before starting the replacement of the `streak`-th worker lost in a row at one
 * place of the pool (1: the worker had answered decisions before it died).
 */
export function restartDelayMs(streak: number): number {
  if (streak <= 1) return 0;
  return Math.min(MAX_RESTART_DELAY_MS, FIRST_RESTART_DELAY_MS * 2 ** (streak - 2));
}

/** Runs `start` after `delayMs`; tests pass their own to hold a restart until they let it go. */
export type RestartScheduler = (start: () => void, delayMs: number) => void;

/** Counts start failures in a row across the pool and remembers the last cause. */
export class StartFailures {
  private count = 0;
  private cause = "";

  /** A worker could not start (or never showed it can evaluate), of `cause`. */
  failed(cause: string): void {
    this.count++;
    this.cause = cause;
  }

  /** A worker built its engine: workers can start. */
  started(): void {
    this.count = 0;
  }

  /** Whether the pool should stop starting workers. */
  exhausted(): boolean {
    return this.count >= START_FAILURES_BEFORE_FALLBACK;
  }

  /** The log line saying why decisions are now evaluated on the main thread. */
  fallbackReason(): string {
    return (
      `evaluation workers cannot start (${this.count} tries in a row): ${this.cause}; ` +
      "evaluating decisions on the main thread"
    );
  }
}
