/**
 * The PostgreSQL driver of kit's `SqlClient`, a `pg` connection pool. An optional schema isolates
 * one user of a shared database (tests use a fresh schema per run).
 */

import type { SqlClient, SqlResult } from "@quintet/kit";
import pg from "pg";
import { NotesError } from "../errors.js";

/** Options of the PostgreSQL driver. */
export interface PgClientOptions {
  readonly url: string;
  /** Schema to create if absent and put first on the search path. */
  readonly schema?: string;
  /** Pool size; defaults to 10. */
  readonly maxConnections?: number;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Opens a pool and checks that the server answers. */
export async function openPgClient(options: PgClientOptions): Promise<SqlClient> {
  const { schema } = options;
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
    throw new NotesError("storage_error", `invalid schema name "${schema}"`);
  }
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.maxConnections ?? 10,
    options: schema ? `-c search_path=${schema}` : undefined,
  });
  // An idle client's network error must not crash the process; the next query reconnects.
  pool.on("error", () => {});
  try {
    if (schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    else await pool.query("SELECT 1");
  } catch (cause) {
    await pool.end();
    throw new NotesError("storage_error", `cannot connect to PostgreSQL: ${messageOf(cause)}`, {
      cause,
    });
  }
  return {
    driver: "pg",
    async query<Row extends object>(
      sql: string,
      params: readonly unknown[] = [],
    ): Promise<SqlResult<Row>> {
      const result = await pool.query(sql, params as unknown[]);
      return { rows: result.rows as Row[], rowCount: result.rowCount ?? 0 };
    },
    async exec(sql: string): Promise<void> {
      await pool.query(sql);
    },
    async close(): Promise<void> {
      await pool.end();
    },
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
