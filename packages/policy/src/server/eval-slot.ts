/**
 * What the evaluation pool keeps of each worker (`Slot`) and of each job it was given
 * (`Pending`).
 */
import type { Worker } from "node:worker_threads";
import type { JobEncoder } from "./eval-batch.js";
import type { EvalJob } from "./eval-job.js";
import type { ToWorker } from "./eval-wire.js";
import type { JobCallback } from "./evaluations.js";

export interface Pending {
  readonly job: EvalJob;
  readonly done: JobCallback;
  /** Date.now() when queued, for the watchdog and the metrics. */
  readonly queuedAt: number;
}

export interface Slot {
  readonly worker: Worker;
  readonly pending: Map<number, Pending>;
  outbox: ToWorker[];
  /** Writes its job batches (it numbers the decision paths this worker was told of). */
  readonly encoder: JobEncoder;
  /** Set when the pool stopped it on purpose (its exit is not a crash). */
  retired: boolean;
  /**
   * Date.now() when the oldest pending job became the oldest: a worker takes its jobs in
   * order, so from then on that job is the one it is evaluating.
   */
  headSince: number;
  /** False until the worker has built its first engine (start-up is not a job's time). */
  ready: boolean;
  /** Whether it answered a job: it evaluates. */
  answered: boolean;
  /** Workers lost in a row at this place of the pool before this one (restart delays). */
  readonly streak: number;
  /** The error the worker died of, when it reported one. */
  lastError?: Error;
}
