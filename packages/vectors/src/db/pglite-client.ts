/** The embedded driver: PGlite (PostgreSQL in WebAssembly) with its pgvector extension. */
import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import type { SqlClient } from "./sql-client.js";
import { toDatabaseError } from "./sql-client.js";

/** Opens (creating if needed) the embedded database in `dataDir`; `memory://` keeps it in memory. */
export async function openPgliteClient(dataDir: string): Promise<SqlClient> {
  const inMemory = dataDir.startsWith("memory://");
  if (!inMemory) mkdirSync(dataDir, { recursive: true });
  let db: PGlite;
  try {
    db = await PGlite.create({ dataDir: inMemory ? undefined : dataDir, extensions: { vector } });
  } catch (error) {
    throw toDatabaseError(error);
  }
  return wrapPglite(db, true);
}

/**
 * Adapts an open PGlite instance to {@link SqlClient}. `owned` says whether `close()` shuts the
 * instance down (tests and the benchmark share one instance between stores).
 */
export function wrapPglite(db: PGlite, owned: boolean): SqlClient {
  return {
    driver: "pglite",
    async query<R extends object>(text: string, params: readonly unknown[] = []) {
      try {
        const result = await db.query<R>(text, params as unknown[]);
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
