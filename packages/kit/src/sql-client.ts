/**
 * SqlClient: the one storage interface of notes and vectors, implemented by a `pg` driver
 * (a real PostgreSQL) and a PGlite driver (embedded), so their SQL is written once.
 */

/** Which driver a client uses; the names of the npm packages behind them. */
export type SqlDriver = "pg" | "pglite";

/**
 * Result of one statement. The shape of `pg`'s own result (PGlite calls the count
 * `affectedRows`), so a driver passes it through and callers read `rows` as they would there.
 */
export interface SqlResult<Row> {
  readonly rows: Row[];
  /** Rows the statement changed (INSERT, UPDATE, DELETE); for a SELECT count `rows`. */
  readonly rowCount: number;
}

/** A session or pool on a PostgreSQL-compatible database. */
export interface SqlClient {
  readonly driver: SqlDriver;
  /**
   * Which database this is, for messages: "embedded PGlite at /abs/dir" or "PostgreSQL at
   * postgres://user:***@host:5432/db" (never a password).
   */
  readonly location?: string;
  /** Runs one statement with `$n` parameters. */
  query<Row extends object = Record<string, unknown>>(
    text: string,
    params?: readonly unknown[],
  ): Promise<SqlResult<Row>>;
  /** Runs a script of several statements without parameters (schema set-up). */
  exec(script: string): Promise<void>;
  /** Releases the session or pool; the client is unusable afterwards. */
  close(): Promise<void>;
}
