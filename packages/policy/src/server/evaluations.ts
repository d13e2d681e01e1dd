/**
 * Where the server's decisions are evaluated: `InlineEvaluations` on the main thread
 * (`server.workers=0`, or once evaluation workers cannot start), or a pool of worker threads
 * (eval-pool.ts). Handlers see only `Evaluations`.
 */
import type { PolicyEngine } from "../engine.js";
import { type EvalJob, type JobResult, runJob } from "./eval-job.js";

/** Evaluates jobs somewhere; the server's handlers call only this. */
export interface Evaluations {
  run(job: EvalJob): Promise<JobResult>;
  /**
   * Whether a decision asked now is evaluated without waiting for a worker to start: false
   * while no worker has started (at start-up, or while failed ones are being replaced) and
   * once closed. `/health` answers 500 while it is false.
   */
  ready(): boolean;
  /** Settles once ready() first holds (or the evaluations are closed). */
  started(): Promise<void>;
  close(): Promise<void>;
}

/** Evaluation on the main thread, on the engine `current()` returns at the call. */
export class InlineEvaluations implements Evaluations {
  constructor(private readonly current: () => PolicyEngine) {}

  run(job: EvalJob): Promise<JobResult> {
    return runJob(this.current(), job);
  }

  ready(): boolean {
    return true;
  }

  async started(): Promise<void> {}

  async close(): Promise<void> {}
}

/** How an evaluation ended, for the server's metrics. */
export type EvalOutcome = "defined" | "undefined" | "error";
