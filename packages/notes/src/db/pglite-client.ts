/**
 * The embedded driver of kit's `SqlClient`: PGlite, PostgreSQL compiled to WebAssembly, so the app
 * runs without a database server. Data lives in a directory, or in memory when none is given.
 */
import { mkdir } from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";
import type { SqlClient, SqlResult } from "@quintet/kit";
import { NotesError } from "../errors.js";

/** Opens PGlite on `dataDir` (created if absent), or in memory when `dataDir` is undefined. */
export async function openPgliteClient(dataDir: string | undefined): Promise<SqlClient> {
  let db: PGlite;
  try {
    if (dataDir !== undefined) await mkdir(dataDir, { recursive: true });
    db = await PGlite.create(dataDir);
  } catch (cause) {
    const where = dataDir ?? "memory";
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new NotesError("storage_error", `cannot open PGlite database in ${where}: ${reason}`, {
      cause,
    });
  }
  return {
    driver: "pglite",
    async query<Row extends object>(
      sql: string,
      params: readonly unknown[] = [],
    ): Promise<SqlResult<Row>> {
      const result = await db.query<Row>(sql, params as unknown[]);
      return { rows: result.rows, rowCount: result.affectedRows ?? 0 };
    },
    async exec(sql: string): Promise<void> {
      await db.exec(sql);
    },
    async close(): Promise<void> {
      await db.close();
    },
  };
}
