// Trial loads: llama.cpp loads a new GGUF in a child process before the store accepts it.
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { AsyncLock } from "../async-lock.js";
import { invalidModel } from "./gguf-layout-check.js";
import type { TrialLoadReport } from "./trial-load-child.js";

/** Options of a trial load; tests swap the child script to make it fail on purpose. */
export interface TrialLoadOptions {
  /** Give up (and refuse the file) after this long. */
  timeoutMs: number;
  /** Script the child runs; defaults to the node-llama-cpp loader next to this file. */
  childScript?: string;
}

const CHILD = fileURLToPath(new URL("./trial-load-child.js", import.meta.url));

/** Bytes of a child's stderr kept to explain a crash. */
const STDERR_KEEP = 4096;

/** Distinct non-empty lines, without build paths before a GGML_ASSERT. */
function tidy(lines: readonly string[]): string[] {
  const out = lines
    .map((l) => l.trim().replace(/^.*?(GGML_ASSERT)/, "$1"))
    .filter((l) => l !== "" && !/failed to load model$/.test(l));
  return [...new Set(out)];
}

/** The lines of a crashed child's stderr that say why (llama.cpp's assert, for one). */
function crashReason(stderr: string): string {
  const lines = tidy(stderr.split("\n"));
  const telling = lines.filter((l) => /GGML_ASSERT|error|abort|failed/i.test(l));
  return (telling.length > 0 ? telling : lines).slice(-3).join("; ");
}

/**
 * Loads a GGUF in a short-lived child process with node-llama-cpp, so that a file
 * llama.cpp refuses (or aborts on) is refused at create time instead of failing every
 * later request, and a native abort cannot take the server down. Resolves when llama.cpp
 * accepted the file; rejects with a 400 carrying llama.cpp's reason otherwise.
 */
export function trialLoad(modelPath: string, options: TrialLoadOptions): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const child = fork(options.childScript ?? CHILD, [modelPath], {
      stdio: ["ignore", "ignore", "pipe", "ipc"],
      execArgv: [],
      // ggml would otherwise try to attach a debugger to print a backtrace on abort.
      env: { ...process.env, GGML_NO_BACKTRACE: "1" },
    });
    let stderr = "";
    let report: TrialLoadReport | undefined;
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString("utf8")).slice(-STDERR_KEEP);
    });
    child.on("message", (m) => {
      report = m as TrialLoadReport;
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, options.timeoutMs);
    timer.unref();
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(invalidModel(`the trial load could not start: ${e.message}`));
    });
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      if (report?.ok) return resolve();
      if (report)
        return reject(
          invalidModel(`llama.cpp cannot load it: ${report.reason ?? "unknown error"}`),
        );
      if (timedOut)
        return reject(invalidModel(`loading it took longer than ${options.timeoutMs} ms`));
      const why = crashReason(stderr);
      reject(
        invalidModel(
          `llama.cpp crashed loading it (${signal ?? `exit code ${code}`})${why ? `: ${why}` : ""}`,
        ),
      );
    });
  });
}

/**
 * Trial loads of a store: one at a time (each is a process with llama.cpp in it), one per
 * digest however many creates ask, and a digest that loaded once is not loaded again.
 */
export class TrialLoads {
  private readonly loadable = new Set<string>();
  private readonly pending = new Map<string, Promise<void>>();
  private readonly lock = new AsyncLock();

  constructor(private readonly timeoutMs: number) {}

  /** Resolves once llama.cpp loaded the blob at `path`; rejects with its reason (400). */
  async check(digest: string, path: string): Promise<void> {
    if (this.loadable.has(digest)) return;
    let p = this.pending.get(digest);
    if (!p) {
      p = this.lock
        .run(() => trialLoad(path, { timeoutMs: this.timeoutMs }))
        .then(() => {
          this.loadable.add(digest);
        })
        .finally(() => this.pending.delete(digest));
      this.pending.set(digest, p);
    }
    await p;
  }
}
