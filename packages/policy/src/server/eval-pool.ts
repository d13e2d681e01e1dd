/**
 * `EvalPool`: decisions evaluated by worker threads that each hold the served engine, so
 * that a slow decision never stalls the event loop (and with it `/health` and every other
 * request).
 *
 * Ordering: every state change and every job goes through one ordered queue per worker;
 * the queue is posted as one message per turn of the event loop (many requests arrive in
 * one turn under load, so one message carries many). A job queued after a change is
 * evaluated after the worker applied it; one queued before, before.
 *
 * Failures: a worker that dies after it started (a crash, running out of memory) fails its
 * pending jobs with 500 internal_error and is replaced with the current state, at once or,
 * when it keeps dying, with growing delays (worker-restarts.ts). A worker that dies before it
 * started passes its jobs (never evaluated) to the others, or they wait for a worker; after
 * repeated start failures the pool evaluates on the main thread and says why, once. With an
 * evaluation time limit, a job still running well past it (the engine stops at the limit by
 * itself; this catches a worker that cannot) is answered eval_cancel_error and its worker
 * replaced; the jobs queued behind it go to the other workers.
 */
import { type ResourceLimits, Worker } from "node:worker_threads";
import type { PolicyEngine } from "../engine.js";
import { RegoError } from "../errors.js";
import { type AnswerRecord, JobEncoder, readAnswer } from "./eval-batch.js";
import type { EvalJob, JobResult } from "./eval-job.js";
import type { Pending, Slot } from "./eval-slot.js";
import {
  type DataPatchMessage,
  type EngineState,
  fromWire,
  type JobMessage,
  READY,
  type StateMessage,
  type ToWorker,
} from "./eval-wire.js";
import {
  type EvalOutcome,
  type Evaluations,
  InlineEvaluations,
  type JobCallback,
} from "./evaluations.js";
import { type RestartScheduler, restartDelayMs, StartFailures } from "./worker-restarts.js";

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
  /** Told when a worker that had started is lost and replaced (the server log). */
  readonly onWorkerLost?: (reason: string) => void;
  /** The engine of main-thread evaluation, used once workers cannot start. */
  readonly mainThread: () => PolicyEngine;
  /** Told once, with the cause, when workers cannot start and the main thread takes over. */
  readonly onFallback?: (reason: string) => void;
  /** The workers' Node options (default: the process's own, as node:worker_threads does). */
  readonly execArgv?: string[];
  /** How a delayed replacement is started (default: a timer); tests hold them. */
  readonly schedule?: RestartScheduler;
}

/** Time past the evaluation limit before a job's worker is deemed stuck. */
export const WATCHDOG_GRACE_MS = 2_000;

const WORKER_URL = new URL("./eval-worker.js", import.meta.url);

/** A pool of evaluation workers. */
export class EvalPool implements Evaluations {
  private readonly slots: Slot[] = [];
  /** Jobs asked while no worker is there (all lost, replacements not started yet). */
  private readonly waiting: Pending[] = [];
  private readonly startFailures = new StartFailures();
  /** Set once workers cannot start: every job runs on the main thread from then on. */
  private fallback: InlineEvaluations | undefined;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly whenStarted: Promise<void>;
  private markStarted: () => void = () => {};
  private nextId = 1;
  private closed = false;
  private readonly watchdog: NodeJS.Timeout | undefined;

  constructor(private readonly options: EvalPoolOptions) {
    if (!(options.size >= 1)) throw new Error("evaluation pool size must be at least 1");
    this.whenStarted = new Promise((resolve) => {
      this.markStarted = resolve;
    });
    for (let i = 0; i < options.size && !this.fallback; i++) this.startSlot(0);
    if (options.evalTimeoutMs > 0) {
      const every = Math.min(1_000, Math.max(50, options.evalTimeoutMs / 4));
      this.watchdog = setInterval(() => this.sweep(), every);
      this.watchdog.unref();
    }
  }

  /** Number of workers there now (for tests and the log). */
  get size(): number {
    return this.slots.length;
  }

  /** Whether decisions are evaluated on the main thread because workers cannot start. */
  get onMainThread(): boolean {
    return this.fallback !== undefined;
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
    return new Promise((resolve, reject) => {
      this.submit(job, (error, result) => (error ? reject(error) : resolve(result as JobResult)));
    });
  }

  submit(job: EvalJob, done: JobCallback): void {
    if (this.closed) done(stoppedError("the server is shutting down"));
    else if (this.fallback) this.fallback.submit(job, done);
    else this.dispatch({ job, done, queuedAt: Date.now() });
  }

  ready(): boolean {
    return !this.closed && (this.fallback !== undefined || this.slots.some((s) => s.ready));
  }

  started(): Promise<void> {
    return this.whenStarted;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.markStarted();
    if (this.watchdog) clearInterval(this.watchdog);
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    const stopped = stoppedError("the server is shutting down");
    for (const p of this.waiting.splice(0)) p.done(stopped);
    const slots = this.slots.splice(0);
    for (const slot of slots) {
      slot.retired = true;
      this.failAll(slot, stopped);
    }
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  /**
   * Queues a job on the worker with the fewest jobs in hand (a starting one evaluates them
   * once started; if it fails to start, they come back here); with no worker at all, holds
   * it until one starts or the main thread takes over.
   */
  private dispatch(p: Pending): void {
    if (this.fallback) {
      this.fallback.submit(p.job, p.done);
      return;
    }
    if (this.slots.length === 0) {
      this.waiting.push(p);
      return;
    }
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
   * than as objects to clone; eval-batch.ts), each state change as it is (its data is one
   * long string).
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
      if (jobs.length > 0) slot.worker.postMessage(slot.encoder.encode(jobs));
      jobs = [];
      slot.worker.postMessage(message);
    }
    if (jobs.length > 0) slot.worker.postMessage(slot.encoder.encode(jobs));
  }

  /** Starts a worker with the current state; `streak`: workers lost in a row before it. */
  private startSlot(streak: number): void {
    let worker: Worker;
    try {
      worker = new Worker(WORKER_URL, {
        resourceLimits: this.options.resourceLimits,
        execArgv: this.options.execArgv,
      });
    } catch (e) {
      this.startFailed(e instanceof Error ? e.message : String(e), streak + 1);
      return;
    }
    // A starting worker keeps the process alive (whoever awaits started() is owed an answer);
    // once started, only while it holds jobs.
    const slot: Slot = {
      worker,
      pending: new Map(),
      outbox: [],
      encoder: new JobEncoder(),
      retired: false,
      headSince: 0,
      ready: false,
      answered: false,
      streak,
    };
    this.slots.push(slot);
    const state = this.options.state();
    this.enqueue(slot, {
      type: "state",
      options: state.options,
      modules: state.modules,
      dataText: state.dataText,
    });
    worker.on("message", (answers: string) => {
      if (answers === READY) this.workerStarted(slot);
      else this.settle(slot, JSON.parse(answers));
    });
    worker.on("error", (error) => {
      slot.lastError = error;
    });
    worker.on("exit", (code) => this.lost(slot, code));
    for (const p of this.waiting.splice(0)) this.dispatch(p);
  }

  /** A worker built its first engine. */
  private workerStarted(slot: Slot): void {
    slot.ready = true;
    slot.headSince = Date.now();
    if (slot.pending.size === 0) slot.worker.unref();
    this.startFailures.started();
    this.markStarted();
  }

  private settle(slot: Slot, records: AnswerRecord[]): void {
    const onEvaluated = this.options.onEvaluated;
    const now = Date.now();
    const head = slot.pending.keys().next().value;
    if (records.length > 0) slot.answered = true;
    for (const record of records) {
      const answer = readAnswer(record);
      const p = slot.pending.get(answer.id);
      if (!p) continue;
      slot.pending.delete(answer.id);
      if (answer.error === undefined) {
        const outcome = answer.result.resultText === undefined ? "undefined" : "defined";
        onEvaluated?.(outcome, (now - p.queuedAt) / 1000);
        p.done(undefined, answer.result);
      } else {
        onEvaluated?.("error", (now - p.queuedAt) / 1000);
        p.done(fromWire(answer.error));
      }
    }
    if (slot.pending.size === 0) slot.worker.unref();
    else if (slot.pending.keys().next().value !== head) slot.headSince = now;
  }

  /**
   * A worker exited. Unless the pool stopped it: one that had started fails its jobs (one of
   * them may be what killed it); one that had not passes them on (none was evaluated).
   */
  private lost(slot: Slot, code: number): void {
    if (slot.retired) return;
    slot.retired = true;
    this.slots.splice(this.slots.indexOf(slot), 1);
    const cause = slot.lastError?.message ?? `exited with code ${code}`;
    const held = slot.pending.size > 0;
    if (slot.ready) {
      const reason = `evaluation worker failed: ${cause}`;
      this.options.onWorkerLost?.(reason);
      this.failAll(slot, new RegoError("internal_error", reason));
    } else {
      const jobs = [...slot.pending.values()];
      slot.pending.clear();
      for (const p of jobs) this.dispatch(p);
    }
    const streak = slot.answered ? 1 : slot.streak + 1;
    // Dying idle before answering anything says nothing good about starting workers either.
    if (!slot.ready || (!slot.answered && !held)) this.startFailed(cause, streak);
    else this.restart(streak);
  }

  /** A worker could not start (or died without ever evaluating); `streak` counts it. */
  private startFailed(cause: string, streak: number): void {
    this.startFailures.failed(cause);
    if (this.startFailures.exhausted() && !this.slots.some((s) => s.ready)) this.fallBack();
    else this.restart(streak);
  }

  /** Starts a replacement, at once or after the delay its streak calls for. */
  private restart(streak: number): void {
    if (this.closed || this.fallback) return;
    const delay = restartDelayMs(streak);
    const start = () => {
      if (!this.closed && !this.fallback) this.startSlot(streak);
    };
    if (delay === 0) start();
    else if (this.options.schedule) this.options.schedule(start, delay);
    else {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        start();
      }, delay);
      this.timers.add(timer);
    }
  }

  /** Workers cannot start: stops them, and runs every job on the main thread from now on. */
  private fallBack(): void {
    this.fallback = new InlineEvaluations(this.options.mainThread);
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    const jobs = this.waiting.splice(0);
    for (const slot of this.slots.splice(0)) {
      slot.retired = true;
      jobs.push(...slot.pending.values());
      slot.pending.clear();
      void slot.worker.terminate();
    }
    this.options.onFallback?.(this.startFailures.fallbackReason());
    this.markStarted();
    for (const p of jobs) this.dispatch(p);
  }

  private failAll(slot: Slot, error: unknown): void {
    const jobs = [...slot.pending.values()];
    slot.pending.clear();
    for (const p of jobs) {
      this.options.onEvaluated?.("error", 0);
      p.done(error);
    }
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
      this.slots.splice(this.slots.indexOf(slot), 1);
      this.startSlot(0);
      void slot.worker.terminate();
      this.options.onWorkerLost?.("evaluation worker stopped: a job ran past the time limit");
      const jobs = [...slot.pending.values()];
      slot.pending.clear();
      this.options.onEvaluated?.("error", (now - oldest.queuedAt) / 1000);
      oldest.done(
        new RegoError("eval_cancel_error", "timed out: query evaluation exceeded its time limit"),
      );
      for (const p of jobs) if (p !== oldest) this.dispatch(p);
    }
  }
}

function stoppedError(why: string): RegoError {
  return new RegoError("internal_error", `evaluation stopped: ${why}`);
}
