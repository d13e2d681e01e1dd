/**
 * Preload (`node --import`) the launcher puts on each child's command line: the child stops
 * when the launcher is gone, however it went (kill -9 included). The launcher hands the
 * child one end of a pipe on the descriptor named by QUINTET_PARENT_FD and never writes to
 * it; end-of-file on it means the launcher's end was closed by the kernel, that is, the
 * launcher died; a thread of its own watches the pipe (parent-watch-thread.ts).
 *
 * Node runs `--import` preloads in every worker thread too (a policy server's evaluation
 * workers, the notes app's hash workers): there the preload does nothing, as only the main
 * thread holds the link and the variables that name it.
 */
import { fstatSync } from "node:fs";
import { isMainThread, Worker } from "node:worker_threads";
import { readWholeNumber } from "@quintet/kit";
import { orphanGraceVar, parentFdVar } from "./parent-link.js";
import type { WatchData } from "./parent-watch-thread.js";

/** Main thread: read (and drop) the link variables, then start the watching thread. */
function startWatching(): void {
  const env = process.env;
  if (env[parentFdVar] === undefined) return;
  const bad: string[] = [];
  const fd = readWholeNumber(env, parentFdVar, -1, [3, 1023], bad);
  const graceMs = readWholeNumber(env, orphanGraceVar, 10_000, [0, 3_600_000], bad);
  // Children this process starts itself are not linked to the launcher.
  delete env[parentFdVar];
  delete env[orphanGraceVar];
  if (bad.length === 0 && !isPipe(fd)) bad.push(`descriptor ${fd} is not a pipe`);
  if (bad.length > 0) {
    process.stderr.write(`quintet watchdog: not watching the launcher: ${bad.join("; ")}\n`);
    return;
  }
  const data: WatchData = { fd, graceMs };
  const worker = new Worker(new URL("./parent-watch-thread.js", import.meta.url), {
    workerData: data,
    execArgv: [],
  });
  worker.on("error", (error) =>
    process.stderr.write(`quintet watchdog: stopped watching: ${error.message}\n`),
  );
  // The watcher never keeps the child alive by itself.
  worker.unref();
}

function isPipe(fd: number): boolean {
  try {
    const stat = fstatSync(fd);
    return stat.isSocket() || stat.isFIFO();
  } catch {
    return false;
  }
}

if (isMainThread) startWatching();
