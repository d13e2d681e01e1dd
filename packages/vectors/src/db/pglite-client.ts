/** The embedded driver: PGlite (PostgreSQL in WebAssembly) with its pgvector extension. */
import { existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { TableMissingError } from "../errors.js";
import { type DirLock, lockDataDir } from "./data-dir-lock.js";
import type { NoticeListener, SqlClient } from "./sql-client.js";
import { toDatabaseError } from "./sql-client.js";

export interface PgliteClientOptions {
  readonly onNotice?: NoticeListener;
  /**
   * Whether a directory without a database is made into one (default true). With false it
   * throws {@link TableMissingError} instead, and creates nothing.
   */
  readonly create?: boolean;
}

/**
 * Opens (creating if needed) the embedded database in `dataDir`, under the directory's lock;
 * `memory://` keeps it in memory (nothing to lock).
 * @param options the options, or (as before) only a notice listener.
 */
export async function openPgliteClient(
  dataDir: string,
  options: PgliteClientOptions | NoticeListener = {},
): Promise<SqlClient> {
  const { onNotice, create = true } =
    typeof options === "function" ? { onNotice: options } : options;
  const inMemory = dataDir.startsWith("memory://");
  const location = inMemory
    ? "embedded PGlite in memory"
    : `embedded PGlite at ${resolve(dataDir)}`;
  let lock: DirLock | undefined;
  if (!inMemory) {
    // PG_VERSION is the first file initdb writes: without it there is no database here.
    if (!create && !existsSync(join(dataDir, "PG_VERSION"))) {
      throw new TableMissingError(`(there is no embedded database at ${resolve(dataDir)})`);
    }
    mkdirSync(dataDir, { recursive: true });
    lock = lockDataDir(dataDir);
  }
  let db: PGlite;
  try {
    db = await PGlite.create({ dataDir: inMemory ? undefined : dataDir, extensions: { vector } });
  } catch (error) {
    lock?.release();
    throw toDatabaseError(error);
  }
  const client = wrapPglite(db, true, onNotice, location);
  return {
    ...client,
    async close() {
      try {
        await client.close();
      } finally {
        lock?.release();
      }
    },
  };
}

/**
 * Adapts an open PGlite instance to {@link SqlClient}. `owned` says whether `close()` shuts the
 * instance down (tests and the benchmark share one instance between stores).
 */
export function wrapPglite(
  db: PGlite,
  owned: boolean,
  onNotice?: NoticeListener,
  location = "embedded PGlite",
): SqlClient {
  const options = onNotice
    ? { onNotice: (notice: { message?: string }) => onNotice(notice.message ?? "") }
    : undefined;
  return {
    driver: "pglite",
    location,
    async query<R extends object>(text: string, params: readonly unknown[] = []) {
      try {
        const result = await db.query<R>(text, params as unknown[], options);
        return { rows: result.rows, rowCount: result.affectedRows ?? 0 };
      } catch (error) {
        throw toDatabaseError(error);
      }
    },
    async exec(script: string) {
      try {
        await db.exec(script, options);
      } catch (error) {
        throw toDatabaseError(error);
      }
    },
    async close() {
      if (owned) await db.close();
    },
  };
}

/** Creates an in-memory PGlite with pgvector available (for tests and the benchmark). */
export function createMemoryPglite(): Promise<PGlite> {
  return PGlite.create({ extensions: { vector } });
}
