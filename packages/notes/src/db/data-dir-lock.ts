/**
 * One `notes serve` per embedded data directory. PGlite has no server process to arbitrate, so
 * two processes on one directory would each write their own copy and one's data would be lost.
 * The first server takes `notes-serve.lock` (kit's pid lock: pid, start time, boot id); a later
 * one refuses to start while that process lives, and takes over a lock whose process is gone
 * (a crash, kill -9, a zombie, a reused pid).
 */
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { type PidLock, takePidLock } from "@quintet/kit";
import { NotesError } from "../errors.js";

/** Name of the lock file inside the data directory. */
export const LOCK_FILE = "notes-serve.lock";

/** A held lock; `release` removes the file (only if it is still ours). */
export type DataDirLock = PidLock;

/**
 * Takes the lock of `dataDir` (created if absent). Throws a `storage_error` naming the
 * directory and the holder's pid when another live process holds it.
 */
export function lockDataDir(dataDir: string): DataDirLock {
  const dir = resolve(dataDir);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, LOCK_FILE);
  return takePidLock(path, (why) =>
    "race" in why
      ? new NotesError("storage_error", `cannot take the lock ${path}: another process races`)
      : new NotesError(
          "storage_error",
          `the data directory ${dir} is in use by another notes server (pid ${why.holder}); ` +
            `stop it first, or set NOTES_DATA_DIR to another directory (lock file ${path})`,
        ),
  );
}
