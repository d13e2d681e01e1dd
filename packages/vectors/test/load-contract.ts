/**
 * Loads under reloads and faults, run on every driver (embedded PGlite, the wire protocol, and a
 * real PostgreSQL with pgvector when TEST_DATABASE_URL has one): the answers after many replace
 * loads over an indexed table, k and the distance of a query, a replace load that stops half
 * way, and an append that resumes.
 */
import assert from "node:assert/strict";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, it } from "node:test";
import { seededRandom } from "../bench/synthetic.js";
import type { SqlClient } from "../src/db/sql-client.js";
import { LoadAbortedError } from "../src/errors.js";
import { Embedder } from "../src/loader/embedder.js";
import { loadDataset } from "../src/loader/load.js";
import type { Distance } from "../src/store/sql.js";
import { VectorStore } from "../src/store/vector-store.js";
import {
  type Endpoint,
  type Misbehaviour,
  startEmbeddingsEndpoint,
} from "./embeddings-endpoint.js";

const D = 2048;
/** Rows per generation: few enough that m=16 links every node to every other (exact search). */
const rowsPerLoad = 30;
const generations = 12;

/** Integer coordinates in three dimensions: exact in halfvec, so index and exact agree. */
function point(random: () => number): number[] {
  return [0, 1, 2].map(() => Math.floor(random() * 1000) - 500);
}

function exactDistance(a: readonly number[], b: readonly number[], distance: Distance): number {
  const dot = a.reduce((sum, x, i) => sum + x * (b[i] ?? 0), 0);
  if (distance === "ip") return -dot;
  const norm = (v: readonly number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  if (distance === "cosine") return 1 - dot / (norm(a) * norm(b));
  return Math.sqrt(a.reduce((sum, x, i) => sum + (x - (b[i] ?? 0)) ** 2, 0));
}

export function runLoadContract(open: () => Promise<SqlClient>): void {
  const random = seededRandom(15);
  const vectors = new Map<string, number[]>();
  let plan: ((inputs: readonly string[]) => Misbehaviour | undefined) | undefined;
  let endpoint: Endpoint;
  let dir = "";

  /** Writes the dataset of one generation; its summaries get fixed vectors. */
  async function generation(name: string, rows = rowsPerLoad): Promise<string> {
    const lines = ["title|author|summary"];
    for (let j = 0; j < rows; j++) {
      const summary = `${name} summary ${j}`;
      vectors.set(summary, point(random));
      lines.push(`${name} ${j}|author|${summary}`);
    }
    const path = join(dir, `${name}.txt`);
    await writeFile(path, `${lines.join("\n")}\n`);
    return path;
  }

  function embedder(): Embedder {
    return new Embedder({
      baseUrl: endpoint.url,
      model: "m",
      apiKey: "k",
      timeoutMs: 30_000,
      retries: 0,
      retryBaseMs: 1,
    });
  }

  async function freshStore(efSearch = 10): Promise<VectorStore> {
    const client = await open();
    await client.query("DROP TABLE IF EXISTS docs_vector");
    await client.query("DROP TABLE IF EXISTS docs_vector_load");
    return new VectorStore(client, D, { efSearch });
  }

  const load = (store: VectorStore, dataset: string, append = false, batchSize = 8) =>
    loadDataset(store, embedder(), { dataset, append, batchSize, concurrency: 2 });

  async function contents(store: VectorStore): Promise<string[]> {
    const { rows } = await store.client.query<{ doc_content: string }>(
      "SELECT doc_content FROM docs_vector ORDER BY doc_id::int",
    );
    return rows.map((row) => row.doc_content);
  }

  before(async () => {
    endpoint = await startEmbeddingsEndpoint({
      dim: D,
      vectors,
      plan: (inputs) => plan?.(inputs),
    });
    dir = await mkdtemp(join(tmpdir(), "vectors-load-contract-"));
  });
  after(() => endpoint.close());

  it("answers with the right k rows after many replace loads over an indexed table", async () => {
    const store = await freshStore();
    try {
      let current = await generation("gen0");
      await load(store, current);
      await store.buildIndex();
      for (let g = 1; g < generations; g++) {
        current = await generation(`gen${g}`);
        const summary = await load(store, current);
        assert.equal(summary.mode, "replaced");
        assert.equal(summary.stored, rowsPerLoad);
      }
      assert.equal(await store.count(), rowsPerLoad);
      assert.ok(await store.indexInfo(), "the index survives the replace loads");
      const live = [...vectors].filter(([text]) => text.startsWith(`gen${generations - 1} `));
      // At this size the planner would scan; forbid that so answers come through the index, as
      // they do in a large table.
      await store.client.query("SET enable_seqscan = off");
      assert.equal((await store.searchPlan()).mode, "hnsw");
      assert.match(
        await store.explainQuery(new Array(D).fill(1)),
        /Index Scan using docs_vector_embedding_hnsw/,
      );
      for (let q = 0; q < 100; q++) {
        const probe = point(random);
        const hits = await store.query([...probe, ...new Array(D - 3).fill(0)], { k: 3 });
        const expected = live
          .map(([, v]) => exactDistance(probe, v, "l2"))
          .sort((a, b) => a - b)
          .slice(0, 3);
        assert.equal(hits.length, 3, `query ${q} returned ${hits.length} rows`);
        hits.forEach((hit, i) => {
          assert.ok(hit.doc_content.startsWith(`gen${generations - 1} `), hit.doc_content);
          assert.ok(Math.abs(hit.distance - (expected[i] as number)) < 1e-6, `query ${q}`);
        });
      }
    } finally {
      await store.client.query("RESET enable_seqscan");
      await store.close();
    }
  });

  it("returns k rows by the chosen distance, through its own index or an exact scan", async () => {
    const store = await freshStore(40);
    try {
      await load(store, await generation("kd"));
      const kd = [...vectors].filter(([text]) => text.startsWith("kd "));
      const probe = point(random);
      const query = [...probe, ...new Array(D - 3).fill(0)];
      for (const distance of ["l2", "cosine", "ip"] as const) {
        const expected = kd.map(([, v]) => exactDistance(probe, v, distance)).sort((a, b) => a - b);
        const exact = await store.query(query, { k: 7, distance });
        assert.equal((await store.searchPlan(distance)).mode, "exact");
        await store.buildIndex({ distance });
        assert.equal((await store.searchPlan(distance)).mode, "hnsw");
        const indexed = await store.query(query, { k: 7, distance });
        for (const hits of [exact, indexed]) {
          assert.equal(hits.length, 7);
          hits.forEach((hit, i) => {
            const want = expected[i] as number;
            assert.ok(Math.abs(hit.distance - want) < 1e-4 * Math.max(1, Math.abs(want)));
          });
        }
      }
    } finally {
      await store.close();
    }
  });

  it("keeps the old rows when a replace load stops half way (a bad row, then a wrong key)", async () => {
    const store = await freshStore();
    try {
      const old = await generation("old");
      await load(store, old);
      const before = await contents(store);
      const next = await generation("next", 40);
      // A row whose embedding has the wrong size, in the fourth batch of eight.
      plan = (inputs) => (inputs.includes("next summary 27") ? { dim: D + 1 } : undefined);
      await assert.rejects(load(store, next), (error: unknown) => {
        assert.ok(error instanceof LoadAbortedError);
        assert.match(error.message, /dimension 2049 but EMBED_DIM is 2048/);
        assert.match(error.message, /docs_vector was not changed: it holds its 30 previous row/);
        return true;
      });
      assert.deepEqual(await contents(store), before);
      plan = (inputs) => (inputs.some((t) => t.endsWith(" 20")) ? { status: 401 } : undefined);
      await assert.rejects(load(store, next), /HTTP 401.*check EMBED_API_KEY/s);
      plan = undefined;
      assert.deepEqual(await contents(store), before);
      const staging = await store.shape("docs_vector_load");
      assert.equal(staging.present, false, "the staging table is dropped");
    } finally {
      plan = undefined;
      await store.close();
    }
  });

  it("resumes with --append: stores only the missing rows, never a duplicate", async () => {
    const store = await freshStore();
    try {
      const path = await generation("resume", 24);
      // The first run loses two batches of eight to a failing endpoint.
      plan = (inputs) =>
        inputs.some((t) => /summary (8|16)$/.test(t)) ? { status: 500 } : undefined;
      const first = await load(store, path, true);
      plan = undefined;
      assert.equal(first.stored, 8);
      assert.equal(first.embeddingFailures, 16);
      const sent = endpoint.requests.length;
      const second = await load(store, path, true);
      assert.equal(second.stored, 16);
      assert.equal(second.alreadyStored, 8);
      const resent = endpoint.requests.slice(sent).flat();
      assert.equal(resent.length, 16, "only the missing rows are embedded again");
      const third = await load(store, path, true);
      assert.equal(third.stored, 0);
      assert.equal(third.alreadyStored, 24);
      const stored = await contents(store);
      assert.equal(stored.length, 24);
      assert.equal(new Set(stored).size, 24, "no duplicates");
      const { rows: ids } = await store.client.query<{ doc_id: string }>(
        "SELECT doc_id FROM docs_vector ORDER BY doc_id::int",
      );
      assert.deepEqual(
        ids.map((r) => r.doc_id),
        Array.from({ length: 24 }, (_, i) => String(11 + i)),
      );
    } finally {
      plan = undefined;
      await store.close();
    }
  });
  it("counts only committed rows when an append stops inside a batch", async () => {
    const store = await freshStore();
    try {
      const path = await generation("commit", 20);
      await store.setup();
      // The database refuses row 12, in the second batch of eight, after rows 8-11 of that
      // batch were inserted: the batch rolls back and only the first batch stays.
      await store.client.query(
        "CREATE OR REPLACE FUNCTION refuse_row() RETURNS trigger LANGUAGE plpgsql AS $$ " +
          "BEGIN IF NEW.doc_content = 'commit summary 12' THEN " +
          "RAISE EXCEPTION 'row refused by the test trigger'; END IF; RETURN NEW; END $$",
      );
      await store.client.query(
        "CREATE TRIGGER refuse BEFORE INSERT ON docs_vector FOR EACH ROW EXECUTE FUNCTION refuse_row()",
      );
      await assert.rejects(load(store, path, true), (error: unknown) => {
        assert.ok(error instanceof LoadAbortedError);
        assert.match(error.message, /row refused by the test trigger/);
        assert.match(
          error.message,
          /docs_vector now holds 8 row\(s\), 8 of them added by this run/,
        );
        return true;
      });
      assert.equal(await store.count(), 8);
    } finally {
      await store.client.query("DROP FUNCTION IF EXISTS refuse_row() CASCADE");
      await store.close();
    }
  });
}
