/**
 * Runs a fuzz campaign in worker threads and watches each input: one that gives no answer
 * within its bound, or that kills its thread (out of memory), is a failure; the campaign
 * then goes on in a fresh thread from the next input.
 */
import { Worker } from "node:worker_threads";
import type { Outcome } from "./fuzz-input.js";
import type { WorkerMessage, WorkerTask } from "./fuzz-worker.js";

/** The settings of a campaign. */
export interface FuzzSettings {
  suiteDir: string;
  seed: number;
  iterations: number;
  /** Run only these input indexes (to reproduce failures). */
  only?: number[];
  evalTimeoutMs: number;
  /** The harness's own guard per input: generous, only for inputs that never end. */
  inputBoundMs: number;
}

/** One input's end. */
export interface InputReport {
  index: number;
  ms: number;
  outcome: Outcome;
}

const workerUrl = new URL("./fuzz-worker.js", import.meta.url);

/** Runs the inputs still to do in one thread; resolves with the index to go on from. */
function runThread(
  settings: FuzzSettings,
  pending: number[],
  reports: InputReport[],
): Promise<number> {
  const task: WorkerTask = {
    suiteDir: settings.suiteDir,
    seed: settings.seed,
    from: 0,
    to: 0,
    only: pending,
    evalTimeoutMs: settings.evalTimeoutMs,
  };
  // The stack of a thread is the size of the main thread's, as in the server; the heap is
  // bounded so that a runaway input ends this thread, not the test.
  const worker = new Worker(workerUrl, {
    workerData: task,
    resourceLimits: { stackSizeMb: 1, maxOldGenerationSizeMb: 1024 },
  });
  return new Promise((resolve) => {
    let current: number | undefined;
    let started = 0;
    let timer: NodeJS.Timeout | undefined;
    let anyStarted = false;
    let finished = false;
    const finish = (failure?: string) => {
      // Messages and events after the first ending (a late "done", the exit) are ignored.
      if (finished) return;
      finished = true;
      if (timer) clearTimeout(timer);
      void worker.terminate();
      if (failure !== undefined && !anyStarted) {
        // The thread could not even start: report it once and end the campaign.
        const detail = `the fuzz thread failed before its first input: ${failure}`;
        reports.push({ index: pending[0] ?? 0, ms: 0, outcome: { kind: "failure", detail } });
        resolve(pending.length);
        return;
      }
      if (failure !== undefined && current !== undefined) {
        const ms = performance.now() - started;
        reports.push({ index: current, ms, outcome: { kind: "failure", detail: failure } });
      }
      resolve(current === undefined ? pending.length : pending.indexOf(current) + 1);
    };
    worker.on("message", (m: WorkerMessage) => {
      if (finished) return;
      if (m.type === "start") {
        anyStarted = true;
        current = m.index;
        started = performance.now();
        timer = setTimeout(
          () => finish(`no answer within ${settings.inputBoundMs} ms (the harness's bound)`),
          settings.inputBoundMs,
        );
      } else if (m.type === "done") {
        if (timer) clearTimeout(timer);
        reports.push({ index: m.index, ms: m.ms, outcome: m.outcome });
        current = undefined;
        const next = pending.indexOf(m.index) + 1;
        if (next >= pending.length) finish();
      } else finish();
    });
    worker.on("error", (e) => finish(`the thread died: ${e.name}: ${e.message}`));
    worker.on("exit", () => finish("the thread exited"));
  });
}

/** Inputs the harness had to stop before the campaign gives up: each costs a whole bound. */
const maxStopped = 5;

/** The reports of a campaign, in input order, and why it ended early if it did. */
export interface CampaignResult {
  reports: InputReport[];
  stoppedEarly?: string;
}

/** Runs every input of the campaign. */
export async function runCampaign(settings: FuzzSettings): Promise<CampaignResult> {
  const all = settings.only ?? Array.from({ length: settings.iterations }, (_, i) => i);
  const reports: InputReport[] = [];
  let pending = all;
  let stopped = 0;
  while (pending.length > 0) {
    const next = await runThread(settings, pending, reports);
    pending = pending.slice(next);
    if (pending.length > 0) stopped++;
    if (stopped >= maxStopped && pending.length > 0) {
      const stoppedEarly = `stopped after ${stopped} inputs had to be cut off; ${pending.length} inputs not run`;
      return { reports: reports.sort((a, b) => a.index - b.index), stoppedEarly };
    }
  }
  return { reports: reports.sort((a, b) => a.index - b.index) };
}
