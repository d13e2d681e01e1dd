/**
 * Registered users in `user_tbl`: the email, the bcrypt hash of the password and the session
 * version. The password itself never reaches this module.
 */
import type { SqlClient } from "@quintet/kit";

/** Storage of registered users. */
export interface UserRepo {
  /**
   * Stores a new user. Returns false, changing nothing, when the email is already registered
   * (decided by the primary key, so two racing sign-ups cannot both win).
   */
  create(email: string, passwordHash: string): Promise<boolean>;
  /** True when `email` is registered (a cheap check before hashing a new password). */
  exists(email: string): Promise<boolean>;
  /** The stored hash of the user's password, or undefined when the email is not registered. */
  findPasswordHash(email: string): Promise<string | undefined>;
  /** The user's current session version, or undefined when the email is not registered. */
  sessionVersion(email: string): Promise<number | undefined>;
  /** Moves the user's session version on, so every session issued before is refused. */
  bumpSessionVersion(email: string): Promise<void>;
}

/** A `UserRepo` over any `SqlClient` driver. */
export function createUserRepo(db: SqlClient): UserRepo {
  return {
    async create(email, passwordHash) {
      const result = await db.query(
        "INSERT INTO user_tbl (email_id, password_hash) VALUES ($1, $2) ON CONFLICT (email_id) DO NOTHING",
        [email, passwordHash],
      );
      return result.rowCount === 1;
    },
    async exists(email) {
      const result = await db.query("SELECT 1 FROM user_tbl WHERE email_id = $1", [email]);
      return result.rows.length > 0;
    },
    async findPasswordHash(email) {
      const result = await db.query<{ password_hash: string }>(
        "SELECT password_hash FROM user_tbl WHERE email_id = $1",
        [email],
      );
      return result.rows[0]?.password_hash;
    },
    async sessionVersion(email) {
      const result = await db.query<{ session_version: number }>(
        "SELECT session_version FROM user_tbl WHERE email_id = $1",
        [email],
      );
      return result.rows[0]?.session_version;
    },
    async bumpSessionVersion(email) {
      await db.query(
        "UPDATE user_tbl SET session_version = session_version + 1 WHERE email_id = $1",
        [email],
      );
    },
  };
}
