/**
 * Where the query benchmark runs: embedded PGlite in memory (always), or a real PostgreSQL
 * server with pgvector (when BENCH_PG_URL or TEST_DATABASE_URL names one). On a real server the
 * benchmark works in a database of its own, dropped afterwards, so it touches nothing else there.
 */
import { openPgClient } from "../src/db/pg-client.js";
import { createMemoryPglite, wrapPglite } from "../src/db/pglite-client.js";
import type { SqlClient } from "../src/db/sql-client.js";

/** An opened database: sessions on it, and how to drop what the benchmark made. */
export interface BenchDatabase {
  /** A client; closing an `owned` one ends the database for all. */
  session(owned: boolean): SqlClient;
  close(): Promise<void>;
}

export interface QueryBenchTarget {
  /** How the report names the database, e.g. "PGlite" or "PostgreSQL server". */
  readonly label: string;
  open(): Promise<BenchDatabase>;
}

export const pgliteTarget: QueryBenchTarget = {
  label: "PGlite",
  async open() {
    const db = await createMemoryPglite();
    return { session: (owned) => wrapPglite(db, owned), close: () => db.close() };
  },
};

/** The real server at `url`, or undefined when no URL is configured. */
export function serverTarget(
  url = process.env.BENCH_PG_URL ?? process.env.TEST_DATABASE_URL,
): QueryBenchTarget | undefined {
  if (!url) return undefined;
  const database = `vectors_bench_${process.pid}`;
  const own = new URL(url);
  own.pathname = `/${database}`;
  const admin = async (statement: string) => {
    const client = await openPgClient(url);
    try {
      await client.query(statement);
    } finally {
      await client.close();
    }
  };
  return {
    label: "PostgreSQL server",
    async open() {
      await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await admin(`CREATE DATABASE ${database}`);
      const client = await openPgClient(own.href);
      let closed = false;
      const close = async () => {
        if (closed) return;
        closed = true;
        await client.close();
        await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      };
      return {
        session: (owned) => ({ ...client, close: owned ? close : async () => {} }),
        close,
      };
    },
  };
}
