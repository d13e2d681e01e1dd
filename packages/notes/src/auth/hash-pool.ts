/**
 * A small pool of worker threads that run bcrypt (`hash-worker.ts`), so hashing a password —
 * tens to hundreds of milliseconds of CPU — never blocks the event loop that serves every
 * other request. Jobs queue in the main thread and go to the first idle worker; workers
 * start on first use and are replaced if one dies (its job fails, the others go on).
 */
import { Worker } from "node:worker_threads";
import type { HashJob, HashOutcome } from "./hash-worker.js";

const WORKER_FILE = new URL("./hash-worker.js", import.meta.url);

/** What a finished job yields: the value and the worker thread that computed it. */
export interface PoolResult<T> {
  readonly value: T;
  readonly threadId: number;
}

/** Runs bcrypt jobs on worker threads. */
export interface HashPool {
  /** Number of worker threads (at most this many jobs run at once). */
  readonly size: number;
  /**
   * Hashes `password`. A job whose `signal` aborts while it waits in the queue (its client has
   * gone) leaves the queue and rejects with `AbortedJobError`: nobody is waiting for it.
   */
  hash(password: string, cost: number, signal?: AbortSignal): Promise<PoolResult<string>>;
  verify(password: string, hash: string, signal?: AbortSignal): Promise<PoolResult<boolean>>;
  /** Jobs waiting for a free worker. */
  queued(): number;
  /** Stops every worker; queued and running jobs fail. */
  close(): Promise<void>;
}

/** A job without its id (the pool numbers them). */
/**
 * A job nobody waits for was dropped: its signal aborted before a worker took it, or the pool
 * closed at shutdown (the server answers every live request before it closes the pool, so what
 * is left then belongs to clients that have gone).
 */
export class AbortedJobError extends Error {
  constructor(reason = "the request was abandoned") {
    super(`password hashing job dropped: ${reason}`);
    this.name = "AbortedJobError";
  }
}

type WithoutId<T> = T extends unknown ? Omit<T, "id"> : never;
type JobBody = WithoutId<HashJob>;

interface Pending {
  readonly body: JobBody;
  resolve(result: PoolResult<string | boolean>): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  job: (Pending & { id: number }) | undefined;
}

/** Creates a pool of `size` workers (at least 1). */
export function createHashPool(size: number): HashPool {
  const threads = Math.max(1, Math.floor(size));
  const slots: Slot[] = [];
  const queue: Pending[] = [];
  let nextId = 1;
  let closed = false;

  function startWorker(): Slot {
    const slot: Slot = { worker: new Worker(WORKER_FILE), job: undefined };
    slot.worker.on("message", (outcome: HashOutcome) => finish(slot, outcome));
    slot.worker.on("error", (error) => fail(slot, error));
    slot.worker.on("exit", (code) => {
      if (!closed) fail(slot, new Error(`password hashing worker exited with code ${code}`));
    });
    // An idle pool must not keep the process alive.
    slot.worker.unref();
    slots.push(slot);
    return slot;
  }

  function finish(slot: Slot, outcome: HashOutcome): void {
    const job = slot.job;
    slot.job = undefined;
    if (job && job.id === outcome.id) {
      if (outcome.ok) job.resolve({ value: outcome.value, threadId: outcome.threadId });
      else job.reject(new Error(`password hashing failed: ${outcome.error}`));
    }
    dispatch();
  }

  /** A worker died: its job fails, the slot gets a fresh worker for the queue. */
  function fail(slot: Slot, error: Error): void {
    const index = slots.indexOf(slot);
    if (index < 0) return;
    slots.splice(index, 1);
    slot.job?.reject(error);
    slot.job = undefined;
    void slot.worker.terminate();
    dispatch();
  }

  function dispatch(): void {
    while (!closed && queue.length > 0) {
      const slot =
        slots.find((s) => s.job === undefined) ??
        (slots.length < threads ? startWorker() : undefined);
      if (!slot) return;
      const pending = queue.shift() as Pending;
      const job = { ...pending, id: nextId++ };
      slot.job = job;
      slot.worker.ref();
      slot.worker.postMessage({ ...pending.body, id: job.id } as HashJob);
    }
    for (const slot of slots) if (slot.job === undefined) slot.worker.unref();
  }

  function submit<T extends string | boolean>(
    body: JobBody,
    signal: AbortSignal | undefined,
  ): Promise<PoolResult<T>> {
    if (closed) return Promise.reject(new Error("password hashing pool is closed"));
    if (signal?.aborted) return Promise.reject(new AbortedJobError());
    return new Promise((resolve, reject) => {
      const pending: Pending = { body, resolve: resolve as Pending["resolve"], reject };
      queue.push(pending);
      signal?.addEventListener(
        "abort",
        () => {
          // Only a job still waiting is dropped; one a worker has taken runs to its end.
          const index = queue.indexOf(pending);
          if (index < 0) return;
          queue.splice(index, 1);
          reject(new AbortedJobError());
        },
        { once: true },
      );
      dispatch();
    });
  }

  return {
    size: threads,
    hash: (password, cost, signal) => submit<string>({ op: "hash", password, cost }, signal),
    verify: (password, hash, signal) => submit<boolean>({ op: "verify", password, hash }, signal),
    queued: () => queue.length,
    async close() {
      closed = true;
      const error = new AbortedJobError("the server is shutting down");
      for (const pending of queue.splice(0)) pending.reject(error);
      for (const slot of slots.splice(0)) {
        slot.job?.reject(error);
        await slot.worker.terminate();
      }
    },
  };
}
