/**
 * A lock file holding its owner's pid, for data that only one process may open at a time
 * (an embedded PGlite directory has no server process to arbitrate). The file is created with
 * O_EXCL; a later taker is refused while the pid in it is alive, and takes over a lock whose
 * process is gone (killed or crashed).
 */
import { readFileSync, unlinkSync, writeFileSync } from "node:fs";

/** A held lock; `release` removes the file if it is still ours. */
export interface PidLock {
  readonly path: string;
  release(): void;
}

/** Why a lock could not be taken: a live holder (its pid), or a taker racing this one. */
export type PidLockRefusal = { holder: number } | { race: true };

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
 * Takes the lock file at `path`, or throws what `refused` makes of the refusal. The same
 * process taking it twice is refused too (its own pid is alive).
 */
export function takePidLock(path: string, refused: (why: PidLockRefusal) => Error): PidLock {
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
    if (holder !== undefined && isAlive(holder)) throw refused({ holder });
    try {
      unlinkSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
  throw refused({ race: true });
}
