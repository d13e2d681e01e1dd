/**
 * One process at a time per embedded data directory. PGlite is PostgreSQL without its
 * postmaster: two processes opening one directory each run their own copy over the same files,
 * which mixes their writes and can corrupt the directory. The first process creates
 * `vectors.lock` in it (O_EXCL) holding its pid; another refuses while that pid is alive, and
 * takes over a lock whose process is gone (killed or crashed).
 */
import { readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { BusyError } from "../errors.js";

/** Name of the lock file inside the data directory. */
export const lockFileName = "vectors.lock";

/** A held lock; `release` removes the file if it is still ours. */
export interface DirLock {
  readonly path: string;
  release(): void;
}

/** True when a process with this pid exists (EPERM: it exists but is someone else's). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The pid written in the lock file, or undefined when it is missing or unreadable. */
function holderOf(path: string): number | undefined {
  try {
    const pid = Number(readFileSync(path, "utf8").trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

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
 * Takes the lock of an existing directory, or throws {@link BusyError} naming the directory,
 * the holder's pid and the lock file. The same process opening the directory twice is refused
 * too: two PGlite instances on one directory are as harmful as two processes.
 */
export function lockDataDir(dataDir: string): DirLock {
  const dir = resolve(dataDir);
  const path = join(dir, lockFileName);
  // A second round follows the removal of a stale lock.
  for (let round = 0; round < 2; round++) {
    if (tryCreate(path)) {
      return {
        path,
        release() {
          if (holderOf(path) === process.pid) unlinkSync(path);
        },
      };
    }
    const holder = holderOf(path);
    if (holder !== undefined && isAlive(holder)) {
      const who = holder === process.pid ? "this process" : `process ${holder}`;
      throw new BusyError(
        `the embedded database ${dir} is in use by ${who}; wait for it to finish, or set ` +
          `VECTORS_DATA_DIR to another directory (lock file ${path})`,
      );
    }
    try {
      unlinkSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
  throw new BusyError(
    `cannot take the lock ${path}: another process is taking it at the same time`,
  );
}
