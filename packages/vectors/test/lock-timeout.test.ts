/**
 * Bounded waits on a real PostgreSQL: a table another session keeps locked ends a command with
 * a message naming PG_LOCK_TIMEOUT (exit 4) instead of hanging, and a statement running past
 * PG_STATEMENT_TIMEOUT is cancelled with a message naming it. PGlite has one session, so
 * nothing can hold a lock against it; these tests need a server: TEST_DATABASE_URL, else the
 * local one on 127.0.0.1:5432 when it answers. They skip with the reason otherwise. The `vectors
 * query` case needs pgvector on that server too. Each run works in a database of its own.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { connect } from "../src/db/connect.js";
import { openPgClient } from "../src/db/pg-client.js";
import type { SqlClient } from "../src/db/sql-client.js";
import { DatabaseError, messageOf } from "../src/errors.js";
import { VectorStore } from "../src/store/vector-store.js";
import { runVectors } from "./cli-harness.js";
import { type Endpoint, startEmbeddingsEndpoint } from "./embeddings-endpoint.js";

const serverUrl = process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
const database = `vectors_lock_${process.pid}_${Date.now()}`;

async function admin(statement: string): Promise<void> {
  const client = await openPgClient(serverUrl, { connectTimeoutMs: 5000 });
  try {
    await client.query(statement);
  } finally {
    await client.close();
  }
}

/** Why there is no server to test on, or undefined. */
async function unavailable(): Promise<string | undefined> {
  try {
    await admin("SELECT 1");
    return undefined;
  } catch (error) {
    const from = process.env.TEST_DATABASE_URL ? "TEST_DATABASE_URL" : "127.0.0.1:5432";
    return `no PostgreSQL at ${from} (${messageOf(error)})`;
  }
}

const reason = await unavailable();

describe("bounded waits on a real PostgreSQL", { timeout: 120_000, skip: reason }, () => {
  const own = new URL(serverUrl);
  own.pathname = `/${database}`;
  let holder: SqlClient;
  before(async () => {
    await admin(`CREATE DATABASE ${database}`);
    holder = await openPgClient(own.href);
  });
  after(async () => {
    await holder?.close();
    await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  });

  /** Runs `work` while the holder keeps docs_vector locked, then checks it still held it. */
  async function whileLocked(work: () => Promise<void>): Promise<void> {
    await holder.query("BEGIN");
    await holder.query("LOCK TABLE docs_vector IN ACCESS EXCLUSIVE MODE");
    try {
      await work();
      const {
        rows: [row],
      } = await holder.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_locks WHERE relation = 'docs_vector'::regclass " +
          "AND mode = 'AccessExclusiveLock' AND granted AND pid = pg_backend_pid()",
      );
      assert.equal(row?.n, 1, "the lock was still held when the waiter gave up");
    } finally {
      await holder.query("ROLLBACK");
    }
  }

  it("gives up on a locked table after PG_LOCK_TIMEOUT, then works once it is free", async () => {
    await holder.query("CREATE TABLE docs_vector (doc_id text)");
    const client = await connect({ databaseUrl: own.href, dataDir: "unused", lockTimeoutMs: 1000 });
    const store = new VectorStore(client, 3);
    try {
      await whileLocked(async () => {
        await assert.rejects(store.count(), (error: unknown) => {
          assert.ok(error instanceof DatabaseError);
          assert.equal(error.sqlState, "55P03");
          assert.match(error.message, /another session holds a lock on the table this needs/);
          assert.match(error.message, /PG_LOCK_TIMEOUT=1 s/);
          return true;
        });
      });
      assert.equal(await store.count(), 0);
    } finally {
      await store.close();
      await holder.query("DROP TABLE docs_vector");
    }
  });

  it("makes `vectors cleanup` exit 4 naming PG_LOCK_TIMEOUT while another session locks the table", async () => {
    await holder.query("CREATE TABLE docs_vector (doc_id text)");
    const env = { PG_VECTOR_DB: own.href, PG_LOCK_TIMEOUT: "1" };
    try {
      await whileLocked(async () => {
        const result = await runVectors(["cleanup"], env);
        assert.equal(result.code, 4, result.stderr);
        assert.match(
          result.stderr,
          /vectors cleanup: another session holds a lock .*PG_LOCK_TIMEOUT=1 s/,
        );
      });
      const done = await runVectors(["cleanup"], env);
      assert.equal(done.stdout, "dropped table docs_vector\n", done.stderr);
    } finally {
      await holder.query("DROP TABLE IF EXISTS docs_vector");
    }
  });

  it("cancels a statement that runs past PG_STATEMENT_TIMEOUT, naming it", async () => {
    const client = await connect({
      databaseUrl: own.href,
      dataDir: "unused",
      statementTimeoutMs: 1000,
    });
    try {
      await assert.rejects(client.query("SELECT pg_sleep(60)"), (error: unknown) => {
        assert.ok(error instanceof DatabaseError);
        assert.match(error.message, /ran longer than PG_STATEMENT_TIMEOUT=1 s and was cancelled/);
        return true;
      });
      assert.deepEqual((await client.query("SELECT 1 AS one")).rows, [{ one: 1 }]);
    } finally {
      await client.close();
    }
  });

  describe("vectors query on a locked table (needs pgvector)", () => {
    let endpoint: Endpoint;
    let noVector: string | undefined;
    before(async () => {
      endpoint = await startEmbeddingsEndpoint({ dim: 3 });
      try {
        await holder.query("CREATE EXTENSION IF NOT EXISTS vector");
      } catch (error) {
        noVector = `the server has no pgvector: ${messageOf(error)}`;
      }
    });
    after(() => endpoint?.close());

    it("exits 4 naming PG_LOCK_TIMEOUT instead of hanging", async (t) => {
      if (noVector) {
        t.skip(noVector);
        return;
      }
      const setup = new VectorStore(holder, 3);
      await setup.setup();
      await setup.add({ id: "11", source: "T", content: "c", embedding: [1, 2, 3] });
      const env = {
        PG_VECTOR_DB: own.href,
        PG_LOCK_TIMEOUT: "1",
        EMBED_DIM: "3",
        EMBED_BASE_URL: endpoint.url,
      };
      try {
        await whileLocked(async () => {
          const result = await runVectors(["query", "anything"], env);
          assert.equal(result.code, 4, result.stderr);
          assert.equal(result.stdout, "");
          assert.match(
            result.stderr,
            /vectors query: another session holds a lock .*PG_LOCK_TIMEOUT=1 s/,
          );
        });
        const free = await runVectors(["query", "anything", "--json"], env);
        assert.equal(free.code, 0, free.stderr);
        assert.equal(JSON.parse(free.stdout)[0].doc_id, "11");
      } finally {
        await holder.query("DROP TABLE IF EXISTS docs_vector");
      }
    });
  });
});
