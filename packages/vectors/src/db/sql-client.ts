/**
 * The one interface both database drivers implement, so the store is written once and runs on
 * a real PostgreSQL (through `pg`) or on embedded PGlite alike.
 */
import { DatabaseError } from "../errors.js";

/** Which driver a client uses. */
export type DriverKind = "pg" | "pglite";

/** A single database session that runs parameterised statements. */
export interface SqlClient {
  readonly driver: DriverKind;
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
