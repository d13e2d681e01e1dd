/**
 * The one interface both database drivers implement, so the store is written once and runs on
 * a real PostgreSQL (through `pg`) or on embedded PGlite alike.
 */
import { DatabaseError } from "../errors.js";

/** Which driver a client uses. */
export type DriverKind = "pg" | "pglite";

/** Hears the server's notices (e.g. pgvector's "graph no longer fits" during a build). */
export type NoticeListener = (message: string) => void;

/** A single database session that runs parameterised statements. */
export interface SqlClient {
  readonly driver: DriverKind;
  /**
   * Which database this is, for messages: "embedded PGlite at /abs/dir" or "PostgreSQL at
   * postgres://user:***@host:5432/db" (never a password).
   */
  readonly location?: string;
  /** Runs one statement with `$n` parameters and returns its rows. Autocommits. */
  query<R extends object>(text: string, params?: readonly unknown[]): Promise<R[]>;
  /** Ends the session (and shuts the embedded database down). */
  close(): Promise<void>;
}

/** Wraps a driver failure in a {@link DatabaseError}, keeping the server's SQLSTATE. */
export function toDatabaseError(error: unknown): DatabaseError {
  if (error instanceof DatabaseError) return error;
  const code = (error as { code?: unknown } | undefined)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return new DatabaseError(message, typeof code === "string" ? code : undefined, { cause: error });
}

/**
 * Runs `work` inside BEGIN/COMMIT on the client's one session; any failure rolls back.
 * Both drivers hold a single session, so the statements of `work` share the transaction.
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
