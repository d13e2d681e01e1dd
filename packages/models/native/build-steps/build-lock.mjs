// One build at a time per build folder (runner processes may need the addon at once).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

/** Whether a process id is alive (a lock left by a killed build is taken over). */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === "EPERM";
  }
}

/** Runs `fn` holding `<dir>/.lock` (a folder: created atomically), waiting for another holder. */
export async function withBuildLock(dir, fn, log) {
  mkdirSync(dir, { recursive: true });
  const lock = join(dir, ".lock");
  let waited = false;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, "pid"), String(process.pid));
      break;
    } catch (e) {
      if (e.code !== "EEXIST") throw e;
      let pid = 0;
      try {
        pid = Number(readFileSync(join(lock, "pid"), "utf8"));
      } catch {}
      if (pid > 0 && !alive(pid)) {
        rmSync(lock, { recursive: true, force: true });
        continue;
      }
      if (!waited) log("another build is running; waiting for it");
      waited = true;
      await sleep(500);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
