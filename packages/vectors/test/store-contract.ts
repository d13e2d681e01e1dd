/**
 * The behaviour every driver must show, run once with embedded PGlite and once over the
 * PostgreSQL wire protocol through `pg` (see store-*.test.ts).
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import type { SqlClient } from "../src/db/sql-client.js";
import { DimensionMismatchError, TableMissingError } from "../src/errors.js";
import { VectorStore } from "../src/store/vector-store.js";

const D = 2048;

/** A D-dimensional vector with the given leading components, zeros elsewhere. */
export function sparse(dim: number, ...lead: number[]): number[] {
  return Array.from({ length: dim }, (_, i) => lead[i] ?? 0);
}

/** Awkward text that must come back byte for byte. */
export const awkwardTexts = [
  "Robert'); DROP TABLE docs_vector;--",
  'He said "it\'s fine" | then left\nsecond line\r\nthird\tcolumn',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the placeholder text is the point
  "$1 $$dollar$$ \\backslash \\x00 %s ${template} -- comment /* block */",
  "Ünïcödé, emoji 📚 and a NUL-free zero width\u200bspace",
];

/** Runs the contract; `open` gives a fresh session on a database shared by the tests. */
export function runStoreContract(open: () => Promise<SqlClient>): void {
  async function freshStore(dim = D): Promise<VectorStore> {
    const client = await open();
    await client.query("DROP TABLE IF EXISTS docs_vector");
    return new VectorStore(client, dim);
  }

  it("creates the extension and the table vector(2048) on setup, and setup is repeatable", async () => {
    const store = await freshStore();
    try {
      assert.deepEqual(await store.shape(), { present: false, dim: undefined });
      await store.setup();
      await store.setup();
      assert.deepEqual(await store.shape(), { present: true, dim: D });
      const { rows: ext } = await store.client.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_extension WHERE extname = 'vector'",
      );
      assert.equal(ext[0]?.n, 1);
    } finally {
      await store.close();
    }
  });

  it("refuses a table of another dimension, naming both numbers, before any insert", async () => {
    const small = await freshStore(16);
    await small.setup();
    await small.close();
    const store = new VectorStore(await open(), D);
    try {
      await assert.rejects(store.setup(), (error: unknown) => {
        assert.ok(error instanceof DimensionMismatchError);
        assert.match(error.message, /dimension 16 but EMBED_DIM is 2048/);
        return true;
      });
      assert.equal(await new VectorStore(store.client, 16).count(), 0);
    } finally {
      await store.close();
    }
  });

  it("refuses an embedding of the wrong length, naming both numbers", async () => {
    const store = await freshStore();
    try {
      await store.setup();
      await assert.rejects(
        store.add({ id: "11", source: "t", content: "c", embedding: [1, 2, 3] }),
        /dimension 3 but EMBED_DIM is 2048/,
      );
      assert.equal(await store.count(), 0);
    } finally {
      await store.close();
    }
  });

  it("skips a row whose embedding is missing and stores the others", async () => {
    const store = await freshStore();
    try {
      await store.setup();
      assert.equal(
        await store.add({ id: "11", source: "a", content: "a", embedding: null }),
        false,
      );
      assert.equal(await store.add({ id: "12", source: "b", content: "b" }), false);
      assert.equal(
        await store.add({ id: "13", source: "c", content: "c", embedding: sparse(D, 1) }),
        true,
      );
      assert.equal(await store.count(), 1);
    } finally {
      await store.close();
    }
  });

  it("returns the three nearest rows by Euclidean distance, nearest first, with distances", async () => {
    const store = await freshStore();
    try {
      await store.setup();
      // Query (1, 1, 0, ...): distances worked out by hand.
      const docs: Array<[string, number[]]> = [
        ["A", sparse(D, 1)], // sqrt(0 + 1) = 1
        ["B", sparse(D, 3)], // sqrt(4 + 1) = sqrt 5
        ["C", sparse(D, 0, 2)], // sqrt(1 + 1) = sqrt 2
        ["D", sparse(D, -2, -2)], // sqrt(9 + 9) = sqrt 18
        ["E", sparse(D, 0, 0, 3)], // sqrt(1 + 1 + 9) = sqrt 11
      ];
      for (const [i, [name, embedding]] of docs.entries()) {
        await store.add({ id: String(11 + i), source: name, content: `doc ${name}`, embedding });
      }
      const hits = await store.query(sparse(D, 1, 1));
      assert.deepEqual(
        hits.map((h) => [h.doc_id, h.doc_source, h.doc_content]),
        [
          ["11", "A", "doc A"],
          ["13", "C", "doc C"],
          ["12", "B", "doc B"],
        ],
      );
      const expected = [1, Math.SQRT2, Math.sqrt(5)];
      hits.forEach((hit, i) => {
        assert.ok(Math.abs(hit.distance - (expected[i] as number)) < 1e-6, `${hit.distance}`);
      });
    } finally {
      await store.close();
    }
  });

  it("stores quotes, pipes, newlines and SQL text verbatim", async () => {
    const store = await freshStore();
    try {
      await store.setup();
      for (const [i, text] of awkwardTexts.entries()) {
        await store.add({
          id: String(11 + i),
          source: text,
          content: text,
          embedding: sparse(D, i),
        });
      }
      assert.deepEqual(await store.shape(), { present: true, dim: D });
      const { rows } = await store.client.query<{ doc_source: string; doc_content: string }>(
        "SELECT doc_source, doc_content FROM docs_vector ORDER BY doc_id",
      );
      assert.deepEqual(
        rows.map((r) => r.doc_content),
        awkwardTexts,
      );
      assert.deepEqual(
        rows.map((r) => r.doc_source),
        awkwardTexts,
      );
    } finally {
      await store.close();
    }
  });

  it("searches exactly until an index exists, then through the halfvec HNSW index", async () => {
    const store = await freshStore();
    try {
      await store.setup();
      for (let i = 0; i < 40; i++) {
        await store.add({
          id: String(11 + i),
          source: `s${i}`,
          content: `c${i}`,
          embedding: sparse(D, i, 40 - i),
        });
      }
      // Nearest to (7.2, 32.9): i=7 (d²=0.05), i=8 (1.45), i=6 (2.65); doc_id = 11 + i.
      const query = sparse(D, 7.2, 32.9);
      const exact = await store.query(query);
      // Forbid sequential scans so the plan shows whether the index *can* serve the query.
      await store.client.query("SET enable_seqscan = off");
      assert.match(await store.explainQuery(query), /Seq Scan on docs_vector/);
      assert.equal((await store.searchPlan()).mode, "exact");
      const info = await store.buildIndex();
      assert.match(
        info.definition,
        /USING hnsw \(\(\(doc_embedding\)::halfvec\(2048\)\) halfvec_l2_ops\)/,
      );
      assert.equal((await store.searchPlan()).mode, "hnsw");
      const plan = await store.explainQuery(query);
      assert.match(plan, /Index Scan using docs_vector_embedding_hnsw on docs_vector/);
      assert.doesNotMatch(plan, /Seq Scan/);
      const approx = await store.query(query);
      assert.deepEqual(
        approx.map((h) => h.doc_id),
        exact.map((h) => h.doc_id),
      );
      assert.deepEqual(
        exact.map((h) => h.doc_id),
        ["18", "19", "17"],
      );
    } finally {
      await store.client.query("RESET enable_seqscan");
      await store.close();
    }
  });

  it("indexes vector_l2_ops directly when the dimension is at most 2000", async () => {
    const store = await freshStore(8);
    try {
      await store.setup();
      await store.add({ id: "11", source: "s", content: "c", embedding: sparse(8, 1) });
      const info = await store.buildIndex({ m: 8, efConstruction: 16 });
      assert.match(info.definition, /USING hnsw \(doc_embedding vector_l2_ops\)/);
      assert.doesNotMatch(info.definition, /halfvec/);
      assert.equal((await store.query(sparse(8, 1)))[0]?.doc_id, "11");
    } finally {
      await store.close();
    }
  });

  it("says the table is missing when querying before setup", async () => {
    const store = await freshStore();
    try {
      await assert.rejects(store.query(sparse(D, 1)), TableMissingError);
      await assert.rejects(store.query(sparse(D, 1)), /run `vectors load` first/);
    } finally {
      await store.close();
    }
  });

  it("drops the table on cleanup and closes the session", async () => {
    const store = await freshStore();
    await store.setup();
    await store.add({ id: "11", source: "s", content: "c", embedding: sparse(D, 1) });
    assert.equal(await store.cleanup(), true);
    const check = new VectorStore(await open(), D);
    try {
      assert.deepEqual(await check.shape(), { present: false, dim: undefined });
      assert.equal(await check.cleanup(), false);
    } catch (error) {
      await check.close();
      throw error;
    }
  });
}
