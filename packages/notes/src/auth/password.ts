/**
 * Password hashing with bcrypt (the maintained pure-JS `bcryptjs`), run on the worker threads
 * of `hash-pool.ts` so a hash never blocks the event loop. A hash is 60 characters, which fits
 * `user_tbl.password_hash varchar(64)`. bcrypt reads at most 72 bytes of a password, so longer
 * passwords are refused rather than silently truncated.
 */
import { availableParallelism } from "node:os";
import { createHashPool, type HashPool } from "./hash-pool.js";

/** Shortest password accepted at sign-up, in characters (NIST SP 800-63B's minimum). */
export const MIN_PASSWORD_LENGTH = 8;

/** Longest password bcrypt can take whole, in UTF-8 bytes. */
export const MAX_PASSWORD_BYTES = 72;

/** Hashes and checks passwords with a fixed cost. */
export interface PasswordHasher {
  /** The bcrypt cost factor used for new hashes. */
  readonly cost: number;
  /** `signal`: the request was abandoned, drop the job if it still waits for a thread. */
  hash(password: string, signal?: AbortSignal): Promise<string>;
  /** True when `password` matches `hash`; false for malformed hashes too. */
  verify(password: string, hash: string, signal?: AbortSignal): Promise<boolean>;
  /** Stops the hashing threads. */
  close(): Promise<void>;
}

/** True when bcrypt would ignore part of the password. */
export function isPasswordTooLong(password: string): boolean {
  return Buffer.byteLength(password, "utf8") > MAX_PASSWORD_BYTES;
}

/**
 * Default number of hashing threads: one per core but one, so a flood of logins can never
 * take the core the event loop needs; at least one.
 */
export function defaultHashThreads(): number {
  return Math.max(1, availableParallelism() - 1);
}

/** A bcrypt hasher with cost factor `cost` on a pool of `threads` worker threads. */
export function createPasswordHasher(cost: number, threads = defaultHashThreads()): PasswordHasher {
  const pool: HashPool = createHashPool(threads);
  return {
    cost,
    async hash(password, signal) {
      return (await pool.hash(password, cost, signal)).value;
    },
    async verify(password, hash, signal) {
      if (isPasswordTooLong(password)) return false;
      // A malformed stored hash makes bcrypt throw in the worker: that is "no match", while a
      // dead worker is a fault of ours and still fails the request.
      const result = await pool.verify(password, hash, signal).catch((error: Error) => {
        if (/password hashing failed/.test(error.message)) return { value: false };
        throw error;
      });
      return result.value;
    },
    close: () => pool.close(),
  };
}
