/**
 * One process at a time per embedded data directory. PGlite is PostgreSQL without its
 * postmaster: two processes opening one directory each run their own copy over the same files,
 * which mixes their writes and can corrupt the directory. The first process takes
 * `vectors.lock` in it (kit's pid lock: pid, start time, boot id); another refuses while that
 * process lives, and takes over a lock whose process is gone (killed, crashed, a zombie).
 */
import { join, resolve } from "node:path";
import { type PidLock, takePidLock } from "@quintet/kit";
import { BusyError } from "../errors.js";

/** Name of the lock file inside the data directory. */
export const lockFileName = "vectors.lock";

/** A held lock; `release` removes the file if it is still ours. */
export type DirLock = PidLock;

/**
 * Takes the lock of an existing directory, or throws {@link BusyError} naming the directory,
 * the holder's pid and the lock file. The same process opening the directory twice is refused
 * too: two PGlite instances on one directory are as harmful as two processes.
 */
export function lockDataDir(dataDir: string): DirLock {
  const dir = resolve(dataDir);
  const path = join(dir, lockFileName);
  return takePidLock(path, (why) => {
    if ("race" in why)
      return new BusyError(
        `cannot take the lock ${path}: another process is taking it at the same time`,
      );
    const who = why.holder === process.pid ? "this process" : `process ${why.holder}`;
    return new BusyError(
      `the embedded database ${dir} is in use by ${who}; wait for it to finish, or set ` +
        `VECTORS_DATA_DIR to another directory (lock file ${path})`,
    );
  });
}
