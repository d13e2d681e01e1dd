/**
 * The store, loads under faults, and the writer lock on a real PostgreSQL with pgvector
 * (TEST_DATABASE_URL; .ci/run sets it and builds the extension when the local server lacks
 * it). Skips with a message when there is none, or when it lacks pgvector (a failure instead
 * under QUINTET_REQUIRE_ALL=1). Each run works in a database of its own, created here and
 * dropped afterwards, so runs sharing the server (and tables other tests keep in the shared
 * database) never meet.
 */
import assert from "node:assert/strict";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { skipUnlessProvided } from "@quintet/kit/testing";
import { openPgClient } from "../src/db/pg-client.js";
import { BusyError, messageOf } from "../src/errors.js";
import { lockTable } from "../src/store/load-lock.js";
import { runVectors } from "./cli-harness.js";
import { type Endpoint, startEmbeddingsEndpoint } from "./embeddings-endpoint.js";
import { runLoadContract } from "./load-contract.js";
import { runStoreContract } from "./store-contract.js";

const url = process.env.TEST_DATABASE_URL;
const database = `vectors_test_${process.pid}_${Date.now()}`;

/** Runs one statement on the server's maintenance connection (the URL's own database). */
async function admin(statement: string): Promise<void> {
  const client = await openPgClient(url ?? "");
  try {
    await client.query(statement);
  } finally {
    await client.close();
  }
}

/** Why the tests cannot run here, or undefined when they can. */
async function unavailable(): Promise<string | undefined> {
  if (!url) return "TEST_DATABASE_URL is not set";
  try {
    const client = await openPgClient(url);
    try {
      await client.query("CREATE EXTENSION IF NOT EXISTS vector");
    } finally {
      await client.close();
    }
    return undefined;
  } catch (error) {
    return `no PostgreSQL with pgvector at TEST_DATABASE_URL: ${messageOf(error)}`;
  }
}

const reason = skipUnlessProvided(await unavailable());

describe("vector store on a real PostgreSQL with pgvector", {
  timeout: 300_000,
  skip: reason,
}, () => {
  const own = new URL(url ?? "postgres://localhost/none");
  own.pathname = `/${database}`;
  before(async () => {
    await admin(`CREATE DATABASE ${database}`);
  });
  after(async () => {
    await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  });
  const open = () => openPgClient(own.href);
  runStoreContract(open);
  runLoadContract(open);

  describe("two writers of one table", () => {
    let endpoint: Endpoint;
    let dataset = "";
    before(async () => {
      endpoint = await startEmbeddingsEndpoint({ dim: 2048, plan: () => ({ delayMs: 150 }) });
      const dir = await mkdtemp(join(tmpdir(), "vectors-lock-"));
      dataset = join(dir, "docs.txt");
      const rows = Array.from({ length: 12 }, (_, i) => `T${i}|a|summary number ${i}`);
      await writeFile(dataset, `title|author|summary\n${rows.join("\n")}\n`);
    });
    after(() => endpoint.close());

    it("refuses a second writer while the advisory lock is held, naming the holder", async () => {
      const first = await open();
      const second = await open();
      try {
        const unlock = await lockTable(first, "load");
        await assert.rejects(lockTable(second, "load"), (error: unknown) => {
          assert.ok(error instanceof BusyError);
          assert.match(error.message, /another load, index build or cleanup of docs_vector/);
          assert.match(error.message, /PostgreSQL backend pid \d+/);
          return true;
        });
        await unlock();
        await (await lockTable(second, "load"))();
      } finally {
        await first.close();
        await second.close();
      }
    });

    it("lets only one of two concurrent loads write; the other exits 4 and changes nothing", async () => {
      const env = {
        PG_VECTOR_DB: own.href,
        EMBED_BASE_URL: endpoint.url,
        DOCS_DATASET: dataset,
        EMBED_BATCH_SIZE: "2",
        EMBED_CONCURRENCY: "1",
      };
      const [a, b] = await Promise.all([runVectors(["load"], env), runVectors(["load"], env)]);
      const codes = [a.code, b.code].sort();
      assert.deepEqual(codes, [0, 4], `${a.stderr}\n${b.stderr}`);
      const refused = a.code === 4 ? a : b;
      assert.match(refused.stderr, /cannot load: another load, index build or cleanup/);
      const client = await open();
      try {
        const { rows } = await client.query<{ n: number; distinct: number }>(
          "SELECT count(*)::int AS n, count(DISTINCT doc_content)::int AS distinct FROM docs_vector",
        );
        assert.deepEqual(rows[0], { n: 12, distinct: 12 });
      } finally {
        await client.close();
      }
    });
  });
});
