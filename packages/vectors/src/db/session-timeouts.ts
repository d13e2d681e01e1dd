/**
 * Bounded waits on a shared database. Every session sets `lock_timeout` and
 * `statement_timeout`, so a table another session keeps locked (or a statement that never
 * ends) stops with a message naming the variable to change, instead of a silent hang.
 */
import { DatabaseError } from "../errors.js";
import type { SqlClient } from "./sql-client.js";

/** The limits of one session, in ms; 0 means no limit (PostgreSQL's meaning). */
export interface SessionTimeouts {
  /** PG_LOCK_TIMEOUT: longest wait for a lock another session holds (default 30 s). */
  readonly lockTimeoutMs?: number;
  /** PG_STATEMENT_TIMEOUT: longest run of one statement (default 0, no limit). */
  readonly statementTimeoutMs?: number;
}

/** The defaults of {@link SessionTimeouts}, also those of the configuration. */
export const defaultLockTimeoutMs = 30_000;
export const defaultStatementTimeoutMs = 0;

/** SQLSTATE of "could not obtain lock" (lock_timeout expired). */
export const lockNotAvailable = "55P03";
/** SQLSTATE of a cancelled statement (statement_timeout expired, among other causes). */
const queryCanceled = "57014";

function limits(timeouts: SessionTimeouts) {
  return {
    lock: timeouts.lockTimeoutMs ?? defaultLockTimeoutMs,
    statement: timeouts.statementTimeoutMs ?? defaultStatementTimeoutMs,
  };
}

/** Sets the session's limits (for the session's life, also outside transactions). */
export async function applyTimeouts(client: SqlClient, timeouts: SessionTimeouts): Promise<void> {
  const { lock, statement } = limits(timeouts);
  await client.query(
    "SELECT set_config('lock_timeout', $1, false), set_config('statement_timeout', $2, false)",
    [`${lock}ms`, `${statement}ms`],
  );
}

/** Says which limit ended a statement and what to change; other errors pass unchanged. */
export function explainTimeout(error: unknown, timeouts: SessionTimeouts): unknown {
  if (!(error instanceof DatabaseError)) return error;
  const { lock, statement } = limits(timeouts);
  if (error.sqlState === lockNotAvailable) {
    return new DatabaseError(
      `another session holds a lock on the table this needs; gave up after waiting ` +
        `PG_LOCK_TIMEOUT=${lock / 1000} s (${error.message}). Run this again once that ` +
        "session is done, or raise PG_LOCK_TIMEOUT",
      error.sqlState,
      { cause: error },
    );
  }
  if (error.sqlState === queryCanceled && /statement timeout/.test(error.message)) {
    return new DatabaseError(
      `the statement ran longer than PG_STATEMENT_TIMEOUT=${statement / 1000} s and was ` +
        `cancelled (${error.message}); raise PG_STATEMENT_TIMEOUT, or set it to 0 for no limit`,
      error.sqlState,
      { cause: error },
    );
  }
  return error;
}

/** The client with its timeout failures explained (see {@link explainTimeout}). */
export function withTimeoutMessages(client: SqlClient, timeouts: SessionTimeouts): SqlClient {
  return {
    ...client,
    async query<R extends object>(text: string, params?: readonly unknown[]) {
      try {
        return await client.query<R>(text, params);
      } catch (error) {
        throw explainTimeout(error, timeouts);
      }
    },
    async exec(script: string) {
      try {
        await client.exec(script);
      } catch (error) {
        throw explainTimeout(error, timeouts);
      }
    },
  };
}
