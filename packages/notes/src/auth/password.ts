/**
 * Password hashing with bcrypt (the maintained pure-JS `bcryptjs`). A hash is 60 characters,
 * which fits `user_tbl.password_hash varchar(64)`. bcrypt reads at most 72 bytes of a
 * password, so longer passwords are refused rather than silently truncated.
 */
import bcrypt from "bcryptjs";

/** Longest password bcrypt can take whole, in UTF-8 bytes. */
export const MAX_PASSWORD_BYTES = 72;

/** Hashes and checks passwords with a fixed cost. */
export interface PasswordHasher {
  /** The bcrypt cost factor used for new hashes. */
  readonly cost: number;
  hash(password: string): Promise<string>;
  /** True when `password` matches `hash`; false for malformed hashes too. */
  verify(password: string, hash: string): Promise<boolean>;
}

/** True when bcrypt would ignore part of the password. */
export function isPasswordTooLong(password: string): boolean {
  return Buffer.byteLength(password, "utf8") > MAX_PASSWORD_BYTES;
}

/** A bcrypt hasher with cost factor `cost` (log2 of the key-expansion rounds). */
export function createPasswordHasher(cost: number): PasswordHasher {
  return {
    cost,
    hash(password) {
      return bcrypt.hash(password, cost);
    },
    async verify(password, hash) {
      if (isPasswordTooLong(password)) return false;
      try {
        return await bcrypt.compare(password, hash);
      } catch {
        return false;
      }
    },
  };
}
