/**
 * Preload (`node --import`) the launcher puts on each child's command line: the child stops
 * when the launcher is gone, however it went (kill -9 included). The launcher hands the
 * child one end of a pipe on the descriptor named by QUINTET_PARENT_FD and never writes to
 * it; end-of-file on it means the launcher's end was closed by the kernel, that is, the
 * launcher died. A worker thread watches the pipe so that a child whose main thread is busy
 * still stops: SIGTERM first so its graceful shutdown runs, SIGKILL after the grace period.
 */
import { fstatSync } from "node:fs";
import { Socket } from "node:net";
import { isMainThread, Worker, workerData } from "node:worker_threads";
import { readWholeNumber } from "@quintet/kit";
import { orphanGraceVar, parentFdVar } from "./parent-link.js";

interface WatchData {
  fd: number;
  graceMs: number;
}

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
  const worker = new Worker(new URL(import.meta.url), { workerData: data, execArgv: [] });
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

/** Watching thread: wait for end-of-file on the pipe, then stop the whole process. */
function watch({ fd, graceMs }: WatchData): void {
  const pipe = new Socket({ fd, readable: true, writable: false });
  let gone = false;
  const parentGone = () => {
    if (gone) return;
    gone = true;
    process.kill(process.pid, "SIGTERM");
    setTimeout(() => process.kill(process.pid, "SIGKILL"), graceMs);
  };
  // The launcher writes nothing; reading is how the end of the pipe becomes visible.
  pipe.on("data", () => undefined);
  pipe.once("end", parentGone);
  pipe.once("close", parentGone);
  pipe.once("error", parentGone);
}

if (isMainThread) startWatching();
else watch(workerData as WatchData);
