/** The built `vectors` binary run as the launcher runs it: `load` with the default storage. */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { runNode, vectorsBin } from "./child-process.js";
import { type Endpoint, startEmbeddingsEndpoint } from "./embeddings-endpoint.js";

describe("the vectors binary", { timeout: 180_000 }, () => {
  let endpoint: Endpoint;
  let cwd = "";
  let env: NodeJS.ProcessEnv = {};
  before(async () => {
    endpoint = await startEmbeddingsEndpoint({ dim: 2048 });
    cwd = await mkdtemp(join(tmpdir(), "vectors-bin-"));
    env = {
      PATH: process.env.PATH,
      EMBED_BASE_URL: endpoint.url,
      EMBED_MODEL: "demo:latest",
      EMBED_API_KEY: "quintet",
    };
  });
  after(() => endpoint.close());

  it("loads the shipped sample into ./.data/vectors and exits 0", async () => {
    const result = await runNode(vectorsBin, ["load"], { cwd, env });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /data\/books\.txt/);
    assert.match(result.stdout, /stored: 68 of 68 data row\(s\)\nids: 11\.\.78\nskipped: 0/);
    assert.match(result.stderr, /progress: 68\/68 rows/);
    assert.ok(
      existsSync(join(cwd, ".data", "vectors", "PG_VERSION")),
      "PGlite data directory created",
    );
  });

  it("answers a query from the data it stored, in a later process", async () => {
    const summary =
      "A sailor joins a whaling voyage whose captain is consumed by the hunt for the white whale that once took his leg.";
    const result = await runNode(vectorsBin, ["query", summary, "--json"], { cwd, env });
    assert.equal(result.code, 0, result.stderr);
    const hits = JSON.parse(result.stdout) as Array<{
      doc_id: string;
      doc_source: string;
      distance: number;
    }>;
    assert.equal(hits.length, 3);
    assert.equal(hits[0]?.doc_source, "Moby-Dick");
    assert.equal(hits[0]?.doc_id, "12");
    assert.equal(hits[0]?.distance, 0);
    assert.ok((hits[1]?.distance ?? 0) <= (hits[2]?.distance ?? 0));
  });

  it("exits 2 with the usage when no command is given", async () => {
    const result = await runNode(vectorsBin, [], { cwd, env });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /usage: vectors <command>/);
  });
});
