/**
 * Where the server's decisions are evaluated: `InlineEvaluations` on the main thread
 * (`server.workers=0`, or once evaluation workers cannot start), or a pool of worker threads
 * (eval-pool.ts). Handlers see only `Evaluations`.
 */
import type { PolicyEngine } from "../engine.js";
import { type EvalJob, type JobResult, runJob } from "./eval-job.js";

/**
 * Told once how a job ended: its error, or its result. Called synchronously from where the
 * answer arrives (no trip through the promise queue), so it must not throw.
 */
export type JobCallback = (error: unknown, result?: JobResult) => void;

/** Evaluates jobs somewhere; the server's handlers call only this. */
export interface Evaluations {
  run(job: EvalJob): Promise<JobResult>;
  /** `run` with a callback: the hot path of decisions, one promise fewer per request. */
  submit(job: EvalJob, done: JobCallback): void;
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

  submit(job: EvalJob, done: JobCallback): void {
    let pending: Promise<JobResult>;
    try {
      pending = runJob(this.current(), job);
    } catch (e) {
      done(e);
      return;
    }
    pending.then((result) => done(undefined, result), done);
  }

  ready(): boolean {
    return true;
  }

  async started(): Promise<void> {}

  async close(): Promise<void> {}
}

/** How an evaluation ended, for the server's metrics. */
export type EvalOutcome = "defined" | "undefined" | "error";
