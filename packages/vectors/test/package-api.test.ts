/**
 * The package as a library, imported by its name the way another package would: the exports
 * resolve to the build, carry types, and the documented API works end to end (connect, setup,
 * add, query, cleanup) on an embedded database in a temporary directory.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { type Endpoint, startEmbeddingsEndpoint } from "./embeddings-endpoint.js";

/** The package's name; a variable so the import below goes through Node's resolution. */
const packageName = "@quintet/vectors";
type Api = typeof import("../src/index.js");

describe("@quintet/vectors imported by name", { timeout: 120_000 }, () => {
  let api: Api;
  let endpoint: Endpoint;
  let dir = "";
  before(async () => {
    api = (await import(packageName)) as Api;
    endpoint = await startEmbeddingsEndpoint({
      dim: 3,
      vectors: new Map([["a whale hunt", [1, 0, 0]]]),
    });
    dir = await mkdtemp(join(tmpdir(), "vectors-api-"));
  });
  after(() => endpoint?.close());

  it("resolves to the built entry point, with its declarations beside it", () => {
    const entry = fileURLToPath(import.meta.resolve(packageName));
    assert.match(entry, /[/\\]vectors[/\\]dist[/\\]src[/\\]index\.js$/);
    const manifest = JSON.parse(
      readFileSync(new URL("../../package.json", import.meta.url), "utf8"),
    ) as { exports: { ".": { types: string; default: string } } };
    const types = fileURLToPath(new URL(`../../${manifest.exports["."].types}`, import.meta.url));
    assert.ok(existsSync(types), types);
    for (const name of ["loadConfig", "openVectorStore", "VectorStore", "createEmbedder"]) {
      assert.ok(name in api, `${name} is exported`);
    }
  });

  it("connects, sets up, adds, queries and cleans up", async () => {
    const config = api.loadConfig({
      VECTORS_DATA_DIR: join(dir, "store"),
      EMBED_DIM: "3",
      EMBED_BASE_URL: endpoint.url,
    });
    const store = await api.openVectorStore(config);
    assert.equal(store.client.location, `embedded PGlite at ${join(dir, "store")}`);
    await store.setup();
    const docs = [
      { id: "1", source: "Moby-Dick", content: "a whaling voyage", embedding: [1, 0.1, 0] },
      { id: "2", source: "Emma", content: "a matchmaker in a village", embedding: [0, 1, 0] },
      { id: "3", source: "Dune", content: "a desert planet", embedding: [0, 0, 1] },
    ];
    for (const doc of docs) assert.equal(await store.add(doc), true);
    assert.equal(await store.add(docs[0] as (typeof docs)[0]), false, "same content: skipped");
    const embedding = await api.createEmbedder(config).embedOne("a whale hunt");
    const hits = await store.query(embedding, { k: 2 });
    assert.deepEqual(
      hits.map((hit) => hit.doc_source),
      ["Moby-Dick", "Emma"],
    );
    assert.ok(Math.abs((hits[0]?.distance ?? -1) - 0.1) < 1e-6);
    assert.equal(await store.cleanup(), true, "the table existed and is dropped");
    const again = await api.openVectorStore(config, { create: false });
    try {
      await assert.rejects(again.query(embedding), api.TableMissingError);
    } finally {
      await again.close();
    }
  });

  it("stops on an invalid variable, naming it", () => {
    assert.throws(
      () => api.loadConfig({ EMBED_DIM: "wide" }),
      (error: unknown) => error instanceof api.ConfigError && /EMBED_DIM/.test(error.message),
    );
  });
});
