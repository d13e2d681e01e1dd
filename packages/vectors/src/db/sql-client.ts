/**
 * What vectors adds to kit's `SqlClient` (which both its drivers implement, so the store runs
 * on a real PostgreSQL or on embedded PGlite alike): notices, its errors, transactions.
 */
import type { SqlClient } from "@quintet/kit";
import { DatabaseError } from "../errors.js";

export type { SqlClient, SqlDriver, SqlResult } from "@quintet/kit";

/** Hears the server's notices (e.g. pgvector's "graph no longer fits" during a build). */
export type NoticeListener = (message: string) => void;

/** Wraps a driver failure in a {@link DatabaseError}, keeping the server's SQLSTATE. */
export function toDatabaseError(error: unknown): DatabaseError {
  if (error instanceof DatabaseError) return error;
  const code = (error as { code?: unknown } | undefined)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return new DatabaseError(message, typeof code === "string" ? code : undefined, { cause: error });
}

/**
 * Runs `work` inside BEGIN/COMMIT on the client's one session; any failure rolls back.
 * Both of vectors' drivers hold a single session (not a pool), so the statements of `work`
 * share the transaction.
 */
export async function withTransaction<T>(client: SqlClient, work: () => Promise<T>): Promise<T> {
  await client.query("BEGIN");
  try {
    const result = await work();
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}
