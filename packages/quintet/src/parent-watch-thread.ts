/**
 * The thread the watchdog preload starts (see parent-watchdog.ts): it waits for end-of-file
 * on the launcher's pipe, then stops the whole process. A thread of its own, so that a child
 * whose main thread is busy still stops: SIGTERM first so its graceful shutdown runs, SIGKILL
 * after the grace period.
 */
import { Socket } from "node:net";
import { workerData } from "node:worker_threads";

/** What the preload hands the thread. */
export interface WatchData {
  fd: number;
  graceMs: number;
}

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

watch(workerData as WatchData);
