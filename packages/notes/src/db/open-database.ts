/**
 * Picks the storage driver from the configuration (PostgreSQL when a URL is set, else embedded
 * PGlite) and creates the tables.
 */

import type { SqlClient } from "@quintet/kit";
import { openPgClient } from "./pg-client.js";
import { openPgliteClient } from "./pglite-client.js";
import { ensureSchema } from "./schema.js";

/** Where the data lives. */
export interface DatabaseTarget {
  /** PostgreSQL URL; when undefined, PGlite is used. */
  readonly databaseUrl?: string;
  /** PGlite data directory; undefined keeps PGlite in memory. */
  readonly dataDir?: string;
  /** PostgreSQL schema to use (tests isolate themselves with one). */
  readonly schema?: string;
}

/** Opens the database and makes sure the tables exist. */
export async function openDatabase(target: DatabaseTarget): Promise<SqlClient> {
  const db = target.databaseUrl
    ? await openPgClient({ url: target.databaseUrl, schema: target.schema })
    : await openPgliteClient(target.dataDir);
  try {
    await ensureSchema(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}
