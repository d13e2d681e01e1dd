/**
 * A lock file naming its owner process, for data that only one process may open at a time (an
 * embedded PGlite directory has no server process to arbitrate). Two rules make it hold:
 *
 * - The record is written to a private temporary file first and then hard-linked to the lock
 *   path. link(2) fails when the path exists, so exactly one of any number of simultaneous
 *   takers gets in, and no taker ever sees a lock file without its record.
 * - A lock whose owner has ended (see hasEnded: exited, zombie, pid reused, earlier boot) is
 *   taken over under a guard: `<lock>.takeover-<key>`, where the key names that one stale file.
 *   The guard is itself a pid lock, taken the same way; whoever holds it checks that the lock
 *   path still holds the very file judged stale, removes it and links its own record. Two
 *   takers that judged the same file stale therefore cannot both remove it, and a later taker
 *   cannot remove the newer lock that replaced it (its text, with a fresh nonce, differs).
 *   A guard left by a taker that crashed mid-takeover is stale in turn and taken over the same
 *   way, one level deeper.
 *
 * The lock holds between processes that see the same pids: one machine, one pid namespace.
 */
import { createHash, randomBytes } from "node:crypto";
import {
  closeSync,
  fstatSync,
  linkSync,
  openSync,
  readFileSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { judgeRecord, newRecord } from "./pid-lock-record.js";

/** A held lock; `release` removes the file if it is still ours. */
export interface PidLock {
  readonly path: string;
  release(): void;
}

/** Why a lock could not be taken: a live holder (its pid), or takers racing this one. */
export type PidLockRefusal = { holder: number } | { race: true };

/** How long a taker waits out a takeover in progress or a record being written. */
const settleWaitMs = 3000;
/** Guards of guards: deeper means that many takers crashed inside one takeover. */
const maxGuardDepth = 3;

/** Errors of link(2) on filesystems without hard links. */
const noHardLinks = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EXDEV"]);

const isCode = (error: unknown, code: string) =>
  (error as NodeJS.ErrnoException | undefined)?.code === code;

/** Removes a file, ignoring one that is already gone. */
function removeFile(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if (!isCode(error, "ENOENT")) throw error;
  }
}

/**
 * Makes `path` hold `record`, complete from the moment it appears; false when `path` exists.
 * Without hard links the file is created (O_EXCL) and then written, which readers bridge by
 * treating a young unreadable file as still being written (unreadableGraceMs).
 */
function publishFile(path: string, record: string): boolean {
  const temporary = `${path}.${randomBytes(6).toString("hex")}.tmp`;
  writeFileSync(temporary, record, { flag: "wx" });
  try {
    linkSync(temporary, path);
    return true;
  } catch (error) {
    if (isCode(error, "EEXIST")) return false;
    if (!noHardLinks.has((error as NodeJS.ErrnoException).code ?? "")) throw error;
  } finally {
    removeFile(temporary);
  }
  try {
    writeFileSync(path, record, { flag: "wx" });
    return true;
  } catch (error) {
    if (isCode(error, "EEXIST")) return false;
    throw error;
  }
}

/** A lock file as read: its text, modification time, and a key naming this very file. */
interface FoundFile {
  readonly text: string;
  readonly mtimeMs: number;
  readonly key: string;
}

/** Reads the file at `path` through one descriptor, so text and inode belong together. */
function readFound(path: string): FoundFile | undefined {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (error) {
    if (isCode(error, "ENOENT")) return undefined;
    throw error;
  }
  try {
    const stat = fstatSync(fd);
    const text = readFileSync(fd, "utf8");
    const key = createHash("sha256")
      .update(`${stat.dev}:${stat.ino}:${text}`)
      .digest("hex")
      .slice(0, 16);
    return { text, mtimeMs: stat.mtimeMs, key };
  } finally {
    closeSync(fd);
  }
}

/** Removes `path` if it still holds `record`. */
function removeIfHolding(path: string, record: string): void {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if (isCode(error, "ENOENT")) return;
    throw error;
  }
  if (text === record) removeFile(path);
}

/** The guard a taker holds while it replaces the stale file `found` at `path`. */
function guardPathOf(path: string, found: FoundFile): string {
  return `${path}.takeover-${found.key}`;
}

/** The guard for taking over the file now at `path` (undefined when none); for tests. */
export function takeoverGuardPath(path: string): string | undefined {
  const found = readFound(path);
  return found && guardPathOf(path, found);
}

/** One attempt's outcome: taken, refused for a live holder, or worth another try. */
type Attempt =
  | { readonly kind: "taken" }
  | { readonly kind: "held"; readonly holder: number }
  | { readonly kind: "retry"; readonly pause: boolean };

/** One attempt at making `path` hold `record`, taking over a stale file found there. */
function attempt(path: string, record: string, depth: number): Attempt {
  if (publishFile(path, record)) return { kind: "taken" };
  const found = readFound(path);
  if (found === undefined) return { kind: "retry", pause: false };
  const verdict = judgeRecord(found.text, found.mtimeMs);
  if (verdict.kind === "held") return verdict;
  if (verdict.kind === "settling" || depth >= maxGuardDepth) return { kind: "retry", pause: true };
  const guard = guardPathOf(path, found);
  const guarded = attempt(guard, record, depth + 1);
  // A live guard holder is taking over right now: wait for its outcome.
  if (guarded.kind !== "taken") return { kind: "retry", pause: true };
  try {
    if (readFound(path)?.key === found.key) removeFile(path);
    return publishFile(path, record) ? { kind: "taken" } : { kind: "retry", pause: false };
  } finally {
    removeIfHolding(guard, record);
  }
}

/** Blocks this thread for `ms` milliseconds (takePidLock is synchronous). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Takes the lock file at `path`, or throws what `refused` makes of the refusal: a live holder,
 * or a takeover by other processes that did not settle within a few seconds. The same process
 * taking it twice is refused too (its own record names a live process).
 */
export function takePidLock(path: string, refused: (why: PidLockRefusal) => Error): PidLock {
  const record = newRecord();
  const deadline = Date.now() + settleWaitMs;
  for (;;) {
    const outcome = attempt(path, record, 0);
    if (outcome.kind === "held") throw refused({ holder: outcome.holder });
    if (outcome.kind === "taken") {
      let released = false;
      return {
        path,
        release() {
          if (!released) removeIfHolding(path, record);
          released = true;
        },
      };
    }
    if (Date.now() > deadline) throw refused({ race: true });
    if (outcome.pause) pause(5 + Math.floor(Math.random() * 20));
  }
}
