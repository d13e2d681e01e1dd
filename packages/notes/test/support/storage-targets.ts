/**
 * The databases every storage-touching test runs on: embedded PGlite in memory always, and a
 * real PostgreSQL server when TEST_DATABASE_URL is set (each run in its own schema, dropped
 * afterwards, so parallel runs never collide).
 */
import { randomBytes } from "node:crypto";
import type { SqlClient } from "@quintet/kit";
import { skipUnlessProvided } from "@quintet/kit/testing";
import { openDatabase } from "../../src/db/open-database.js";
import { openPgClient } from "../../src/db/pg-client.js";

/** A database a suite can open and must dispose of. */
export interface StorageTarget {
  /** "pglite" or "postgres", for test names. */
  readonly name: string;
  /**
   * Why the target cannot run here, or undefined. Read it where the suite is defined: under
   * QUINTET_REQUIRE_ALL=1 a missing database also adds a failing test there.
   */
  readonly skip: string | undefined;
  /** Opens a fresh, empty database with the tables created. */
  open(): Promise<OpenedStorage>;
}

/** An opened test database. */
export interface OpenedStorage {
  readonly db: SqlClient;
  /** Closes the client and removes what the test created. */
  dispose(): Promise<void>;
}

const pglite: StorageTarget = {
  name: "pglite",
  skip: undefined,
  async open() {
    const db = await openDatabase({});
    return { db, dispose: () => db.close() };
  },
};

function postgres(url: string | undefined): StorageTarget {
  return {
    name: "postgres",
    get skip() {
      return skipUnlessProvided(
        url
          ? undefined
          : "TEST_DATABASE_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/test)",
      );
    },
    async open() {
      if (!url) throw new Error("TEST_DATABASE_URL is not set");
      const schema = `notes_test_${process.pid}_${randomBytes(4).toString("hex")}`;
      const db = await openDatabase({ databaseUrl: url, schema });
      return {
        db,
        async dispose() {
          await db.close();
          const admin = await openPgClient({ url, maxConnections: 1 });
          try {
            await admin.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
          } finally {
            await admin.close();
          }
        },
      };
    },
  };
}

/** PGlite, then PostgreSQL (skipped with a reason when TEST_DATABASE_URL is unset). */
export const STORAGE_TARGETS: readonly StorageTarget[] = [
  pglite,
  postgres(process.env.TEST_DATABASE_URL),
];
