/**
 * One `notes serve` per embedded data directory. PGlite has no server process to arbitrate, so
 * two processes on one directory would each write their own copy and one's data would be lost.
 * The first server creates `notes-serve.lock` (O_EXCL) holding its pid; a later one refuses to
 * start while that pid is alive, and takes over a lock whose process is gone (a crash).
 */
import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { NotesError } from "../errors.js";

/** Name of the lock file inside the data directory. */
export const LOCK_FILE = "notes-serve.lock";

/** A held lock; `release` removes the file (only if it is still ours). */
export interface DataDirLock {
  readonly path: string;
  release(): void;
}

/** True when a process with this pid exists (EPERM: it exists but belongs to someone else). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The pid written in the lock file, or undefined when it is gone or unreadable. */
function readHolder(path: string): number | undefined {
  try {
    const pid = Number(readFileSync(path, "utf8").trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Creates the lock file with O_EXCL; false when it already exists. */
function tryCreate(path: string): boolean {
  try {
    writeFileSync(path, `${process.pid}\n`, { flag: "wx" });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

/**
 * Takes the lock of `dataDir` (created if absent). Throws a `storage_error` naming the
 * directory and the holder's pid when another live process holds it.
 */
export function lockDataDir(dataDir: string): DataDirLock {
  const dir = resolve(dataDir);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, LOCK_FILE);
  // Two rounds: the second follows the removal of a stale lock.
  for (let round = 0; round < 2; round++) {
    if (tryCreate(path)) {
      return {
        path,
        release() {
          if (readHolder(path) === process.pid) unlinkSync(path);
        },
      };
    }
    const holder = readHolder(path);
    if (holder !== undefined && isAlive(holder)) {
      throw new NotesError(
        "storage_error",
        `the data directory ${dir} is in use by another notes server (pid ${holder}); ` +
          `stop it first, or set NOTES_DATA_DIR to another directory (lock file ${path})`,
      );
    }
    // The holder is gone (crashed): its lock is stale.
    try {
      unlinkSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
  throw new NotesError("storage_error", `cannot take the lock ${path}: another process races`);
}
