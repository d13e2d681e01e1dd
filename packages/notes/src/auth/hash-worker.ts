/**
 * Body of a password-hashing worker thread: runs bcrypt (bcryptjs) for the pool in
 * `hash-pool.ts`, one job at a time, so the event loop of the main thread never spends the
 * 2^cost rounds itself. Messages in: `HashJob`; out: `HashOutcome` with this thread's id.
 */
import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { isMainThread, parentPort, threadId } from "node:worker_threads";
import bcrypt from "bcryptjs";

/** Nice value of hashing threads: when CPUs are short, the event loop's thread goes first. */
export const HASH_THREAD_NICE = 10;

/**
 * Lowers this thread's scheduling priority. On Linux the nice value is per thread, and
 * `/proc/thread-self` names this thread's id; elsewhere (or when refused) it stays as it is.
 */
function lowerOwnPriority(): void {
  try {
    const tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, HASH_THREAD_NICE);
  } catch {
    // Not Linux, or not allowed: hashing still works at normal priority.
  }
}

// Only in a worker: importing this module elsewhere (for its types and constant) changes nothing.
if (!isMainThread) lowerOwnPriority();

/** A job sent to a worker. */
export type HashJob =
  | { readonly id: number; readonly op: "hash"; readonly password: string; readonly cost: number }
  | {
      readonly id: number;
      readonly op: "verify";
      readonly password: string;
      readonly hash: string;
    };

/** A worker's answer to one job. */
export type HashOutcome =
  | {
      readonly id: number;
      readonly threadId: number;
      readonly ok: true;
      readonly value: string | boolean;
    }
  | { readonly id: number; readonly threadId: number; readonly ok: false; readonly error: string };

function run(job: HashJob): string | boolean {
  // The synchronous forms: this thread has nothing else to do, and chunking (the async
  // forms) would only add rescheduling.
  if (job.op === "hash") return bcrypt.hashSync(job.password, job.cost);
  return bcrypt.compareSync(job.password, job.hash);
}

parentPort?.on("message", (job: HashJob) => {
  let outcome: HashOutcome;
  try {
    outcome = { id: job.id, threadId, ok: true, value: run(job) };
  } catch (error) {
    outcome = { id: job.id, threadId, ok: false, error: String(error) };
  }
  parentPort?.postMessage(outcome);
});
