/** The embedded driver: PGlite (PostgreSQL in WebAssembly) with its pgvector extension. */
import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { type DirLock, lockDataDir } from "./data-dir-lock.js";
import type { NoticeListener, SqlClient } from "./sql-client.js";
import { toDatabaseError } from "./sql-client.js";

/**
 * Opens (creating if needed) the embedded database in `dataDir`, under the directory's lock;
 * `memory://` keeps it in memory (nothing to lock).
 */
export async function openPgliteClient(
  dataDir: string,
  onNotice?: NoticeListener,
): Promise<SqlClient> {
  const inMemory = dataDir.startsWith("memory://");
  let lock: DirLock | undefined;
  if (!inMemory) {
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
  const client = wrapPglite(db, true, onNotice);
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
export function wrapPglite(db: PGlite, owned: boolean, onNotice?: NoticeListener): SqlClient {
  const options = onNotice
    ? { onNotice: (notice: { message?: string }) => onNotice(notice.message ?? "") }
    : undefined;
  return {
    driver: "pglite",
    async query<R extends object>(text: string, params: readonly unknown[] = []) {
      try {
        const result = await db.query<R>(text, params as unknown[], options);
        return result.rows;
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
