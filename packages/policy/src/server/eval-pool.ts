/**
 * Where decisions are evaluated: `InlineEvaluations` on the main thread (`server.workers=0`),
 * or `EvalPool`, worker threads that each hold the served engine, so that a slow decision
 * never stalls the event loop (and with it `/health` and every other request).
 *
 * Ordering: every state change and every job goes through one ordered queue per worker;
 * the queue is posted as one message per turn of the event loop (many requests arrive in
 * one turn under load, so one message carries many). A job queued after a change is
 * evaluated after the worker applied it; one queued before, before.
 *
 * Failures: a worker that dies (a crash, running out of memory) fails its pending jobs with
 * 500 internal_error and is replaced at once with the current state. With an evaluation
 * time limit, a job still running well past it (the engine stops at the limit by itself;
 * this catches a worker that cannot) is answered eval_cancel_error and its worker replaced;
 * the jobs queued behind it go to the other workers.
 */
import { type ResourceLimits, Worker } from "node:worker_threads";
import type { PolicyEngine } from "../engine.js";
import { RegoError } from "../errors.js";
import { type EvalJob, type JobResult, runJob } from "./eval-job.js";
import {
  type DataPatchMessage,
  type EngineState,
  type FromWorker,
  fromWire,
  type JobMessage,
  READY,
  type StateMessage,
  type ToWorker,
} from "./eval-wire.js";

/** Evaluates jobs somewhere; the server's handlers call only this. */
export interface Evaluations {
  run(job: EvalJob): Promise<JobResult>;
  /** False once evaluations cannot be run any more (closed). */
  alive(): boolean;
  close(): Promise<void>;
}

/** Evaluation on the main thread, on the engine `current()` returns at the call. */
export class InlineEvaluations implements Evaluations {
  constructor(private readonly current: () => PolicyEngine) {}

  run(job: EvalJob): Promise<JobResult> {
    return runJob(this.current(), job);
  }

  alive(): boolean {
    return true;
  }

  async close(): Promise<void> {}
}

/** How an evaluation ended, for the server's metrics. */
export type EvalOutcome = "defined" | "undefined" | "error";

export interface EvalPoolOptions {
  /** Number of worker threads (at least 1). */
  readonly size: number;
  /** The state a worker starts with (asked again for each replacement). */
  readonly state: () => EngineState;
  /** The evaluation time limit (0: none); the watchdog acts past it plus a grace. */
  readonly evalTimeoutMs: number;
  /** The grace past the limit before the watchdog acts (default WATCHDOG_GRACE_MS). */
  readonly watchdogGraceMs?: number;
  /** Memory bounds of each worker (a worker past them dies and is replaced). */
  readonly resourceLimits?: ResourceLimits;
  /** Told of every finished evaluation (metrics). */
  readonly onEvaluated?: (outcome: EvalOutcome, seconds: number) => void;
  /** Told when a worker is lost and replaced (the server log). */
  readonly onWorkerLost?: (reason: string) => void;
}

interface Pending {
  readonly job: EvalJob;
  readonly resolve: (result: JobResult) => void;
  readonly reject: (error: unknown) => void;
  /** Date.now() when queued, for the watchdog and the metrics. */
  readonly queuedAt: number;
}

interface Slot {
  readonly worker: Worker;
  readonly pending: Map<number, Pending>;
  outbox: ToWorker[];
  /** Set when the pool stopped it on purpose (its exit is not a crash). */
  retired: boolean;
  /**
   * Date.now() when the oldest pending job became the oldest: a worker takes its jobs in
   * order, so from then on that job is the one it is evaluating.
   */
  headSince: number;
  /** False until the worker has built its first engine (start-up is not a job's time). */
  ready: boolean;
  /** The error the worker died of, when it reported one. */
  lastError?: Error;
}

/** Time past the evaluation limit before a job's worker is deemed stuck. */
export const WATCHDOG_GRACE_MS = 2_000;

const WORKER_URL = new URL("./eval-worker.js", import.meta.url);

/** A pool of evaluation workers. */
export class EvalPool implements Evaluations {
  private readonly slots: Slot[] = [];
  private nextId = 1;
  private closed = false;
  private readonly watchdog: NodeJS.Timeout | undefined;

  constructor(private readonly options: EvalPoolOptions) {
    if (!(options.size >= 1)) throw new Error("evaluation pool size must be at least 1");
    for (let i = 0; i < options.size; i++) this.slots.push(this.startSlot());
    if (options.evalTimeoutMs > 0) {
      const every = Math.min(1_000, Math.max(50, options.evalTimeoutMs / 4));
      this.watchdog = setInterval(() => this.sweep(), every);
      this.watchdog.unref();
    }
  }

  /** Number of workers (for tests and the log). */
  get size(): number {
    return this.slots.length;
  }

  /** Sends a new state to every worker: jobs queued from now on see it. */
  update(state: EngineState, policiesChanged: boolean): void {
    const message: StateMessage = policiesChanged
      ? { type: "state", options: state.options, modules: state.modules, dataText: state.dataText }
      : { type: "state", dataText: state.dataText };
    for (const slot of this.slots) this.enqueue(slot, message);
  }

  /** Sends a data write (the document at `path`, or its removal) to every worker. */
  patchData(patch: DataPatchMessage): void {
    for (const slot of this.slots) this.enqueue(slot, patch);
  }

  run(job: EvalJob): Promise<JobResult> {
    if (this.closed) return Promise.reject(stoppedError("the server is shutting down"));
    return new Promise((resolve, reject) => {
      this.dispatch({ job, resolve, reject, queuedAt: Date.now() });
    });
  }

  alive(): boolean {
    return !this.closed && this.slots.length > 0;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.watchdog) clearInterval(this.watchdog);
    const slots = this.slots.splice(0);
    for (const slot of slots) {
      slot.retired = true;
      this.failAll(slot, stoppedError("the server is shutting down"));
    }
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  /** Queues a job on the worker with the fewest jobs in hand. */
  private dispatch(p: Pending): void {
    let best = this.slots[0] as Slot;
    for (const slot of this.slots) if (slot.pending.size < best.pending.size) best = slot;
    const id = this.nextId++;
    // A worker keeps the process alive only while it holds jobs (an idle pool never does).
    if (best.pending.size === 0) {
      best.worker.ref();
      best.headSince = Date.now();
    }
    best.pending.set(id, p);
    this.enqueue(best, { type: "job", id, job: p.job });
  }

  private enqueue(slot: Slot, message: ToWorker): void {
    // One postMessage per turn of the loop carries everything queued during it.
    if (slot.outbox.length === 0) setImmediate(() => this.flush(slot));
    slot.outbox.push(message);
  }

  /**
   * Posts the queued messages in order: each run of jobs as one JSON text (cheaper to pass
   * than as objects to clone), each state change as it is (its data is one long string).
   */
  private flush(slot: Slot): void {
    const batch = slot.outbox;
    slot.outbox = [];
    if (slot.retired || batch.length === 0) return;
    let jobs: JobMessage[] = [];
    for (const message of batch) {
      if (message.type === "job") {
        jobs.push(message);
        continue;
      }
      if (jobs.length > 0) slot.worker.postMessage(JSON.stringify(jobs));
      jobs = [];
      slot.worker.postMessage(message);
    }
    if (jobs.length > 0) slot.worker.postMessage(JSON.stringify(jobs));
  }

  private startSlot(): Slot {
    const worker = new Worker(WORKER_URL, { resourceLimits: this.options.resourceLimits });
    worker.unref();
    const slot: Slot = {
      worker,
      pending: new Map(),
      outbox: [],
      retired: false,
      headSince: 0,
      ready: false,
    };
    const state = this.options.state();
    this.enqueue(slot, {
      type: "state",
      options: state.options,
      modules: state.modules,
      dataText: state.dataText,
    });
    worker.on("message", (answers: string) => {
      if (answers === READY) {
        slot.ready = true;
        slot.headSince = Date.now();
      } else this.settle(slot, JSON.parse(answers));
    });
    worker.on("error", (error) => {
      slot.lastError = error;
    });
    worker.on("exit", (code) => this.lost(slot, code));
    return slot;
  }

  private settle(slot: Slot, answers: FromWorker[]): void {
    const onEvaluated = this.options.onEvaluated;
    const now = Date.now();
    const head = slot.pending.keys().next().value;
    for (const answer of answers) {
      const p = slot.pending.get(answer.id);
      if (!p) continue;
      slot.pending.delete(answer.id);
      if (answer.ok) {
        const outcome = answer.result.resultText === undefined ? "undefined" : "defined";
        onEvaluated?.(outcome, (now - p.queuedAt) / 1000);
        p.resolve(answer.result);
      } else {
        onEvaluated?.("error", (now - p.queuedAt) / 1000);
        p.reject(fromWire(answer.error));
      }
    }
    if (slot.pending.size === 0) slot.worker.unref();
    else if (slot.pending.keys().next().value !== head) slot.headSince = now;
  }

  /** A worker exited: unless the pool stopped it, its jobs fail and a new one takes its place. */
  private lost(slot: Slot, code: number): void {
    if (slot.retired) return;
    slot.retired = true;
    const reason = slot.lastError
      ? `evaluation worker failed: ${slot.lastError.message}`
      : `evaluation worker exited with code ${code}`;
    this.options.onWorkerLost?.(reason);
    this.failAll(slot, new RegoError("internal_error", reason));
    this.replace(slot);
  }

  private failAll(slot: Slot, error: unknown): void {
    const jobs = [...slot.pending.values()];
    slot.pending.clear();
    for (const p of jobs) {
      this.options.onEvaluated?.("error", 0);
      p.reject(error);
    }
  }

  private replace(slot: Slot): void {
    const at = this.slots.indexOf(slot);
    if (at < 0 || this.closed) return;
    this.slots[at] = this.startSlot();
  }

  /**
   * Replaces a worker whose oldest job (the one it is evaluating: a worker takes its jobs
   * in order) is far past the time limit; that job is cancelled, the ones behind it requeued.
   */
  private sweep(): void {
    const limit = this.options.evalTimeoutMs + (this.options.watchdogGraceMs ?? WATCHDOG_GRACE_MS);
    const now = Date.now();
    for (const slot of [...this.slots]) {
      const oldest = slot.pending.values().next().value as Pending | undefined;
      if (!oldest || !slot.ready || now - slot.headSince <= limit) continue;
      slot.retired = true;
      this.replace(slot);
      void slot.worker.terminate();
      this.options.onWorkerLost?.("evaluation worker stopped: a job ran past the time limit");
      const jobs = [...slot.pending.values()];
      slot.pending.clear();
      this.options.onEvaluated?.("error", (now - oldest.queuedAt) / 1000);
      oldest.reject(
        new RegoError("eval_cancel_error", "timed out: query evaluation exceeded its time limit"),
      );
      for (const p of jobs) if (p !== oldest) this.dispatch(p);
    }
  }
}

function stoppedError(why: string): RegoError {
  return new RegoError("internal_error", `evaluation stopped: ${why}`);
}
