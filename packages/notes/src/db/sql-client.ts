/**
 * The one storage interface the repositories use. Two drivers implement it: PostgreSQL through
 * `pg` (`pg-client.ts`) and embedded PGlite (`pglite-client.ts`). Both speak PostgreSQL SQL
 * with `$1` parameters, so the repositories' SQL is written once.
 */

/** Result of a query: the rows and how many rows the statement affected. */
export interface SqlResult<Row> {
  readonly rows: Row[];
  readonly rowCount: number;
}

/** A connection (or pool) to a PostgreSQL-compatible database. */
export interface SqlClient {
  /** Which driver this is, for logs. */
  readonly driver: "postgres" | "pglite";
  /** Runs one parameterised statement. */
  query<Row = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
  ): Promise<SqlResult<Row>>;
  /** Runs a script of several statements without parameters (schema set-up). */
  exec(sql: string): Promise<void>;
  /** Releases connections; the client is unusable afterwards. */
  close(): Promise<void>;
}
