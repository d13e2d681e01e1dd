/**
 * The fuzz worker: runs inputs [from, to) of a seed and reports each one's start and end to
 * the test, which watches the time each takes and can stop this thread if one never ends.
 */
import { parentPort, workerData } from "node:worker_threads";
import { loadCases } from "../compliance/cases.js";
import { buildInput, runInput } from "./fuzz-input.js";

/** What the test sends: which inputs to run and how. */
export interface WorkerTask {
  suiteDir: string;
  seed: number;
  from: number;
  to: number;
  /** Indexes to run instead of [from, to), when reproducing single inputs. */
  only?: number[];
  evalTimeoutMs: number;
}

/** What the worker sends back. */
export type WorkerMessage =
  | { type: "start"; index: number }
  | { type: "done"; index: number; ms: number; outcome: ReturnType<typeof runInput> }
  | { type: "end" };

function run(task: WorkerTask): void {
  const port = parentPort;
  if (!port) throw new Error("fuzz-worker runs only as a worker thread");
  const cases = loadCases([task.suiteDir]).map((c) => c.case);
  const indexes = task.only ?? [];
  if (!task.only) for (let i = task.from; i < task.to; i++) indexes.push(i);
  for (const index of indexes) {
    const input = buildInput(cases, task.seed, index);
    port.postMessage({ type: "start", index } satisfies WorkerMessage);
    const t0 = performance.now();
    const outcome = runInput(input, task.evalTimeoutMs);
    const ms = performance.now() - t0;
    port.postMessage({ type: "done", index, ms, outcome } satisfies WorkerMessage);
  }
  port.postMessage({ type: "end" } satisfies WorkerMessage);
}

run(workerData as WorkerTask);
