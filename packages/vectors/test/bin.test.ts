/**
 * The built `vectors` binary run as the launcher runs it: `load` with the default storage, then
 * commands from other folders that must find the same store.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { runNode, vectorsBin } from "./child-process.js";
import { type Endpoint, startEmbeddingsEndpoint } from "./embeddings-endpoint.js";

describe("the vectors binary", { timeout: 180_000 }, () => {
  let endpoint: Endpoint;
  let cwd = "";
  let elsewhere = "";
  let store = "";
  let env: NodeJS.ProcessEnv = {};
  before(async () => {
    endpoint = await startEmbeddingsEndpoint({ dim: 2048 });
    cwd = await mkdtemp(join(tmpdir(), "vectors-bin-"));
    elsewhere = join(cwd, "packages", "vectors");
    await mkdir(elsewhere, { recursive: true });
    // The per-user default, moved under the test's folder so no real home is touched.
    store = join(cwd, "xdg", "quintet", "vectors");
    env = {
      PATH: process.env.PATH,
      HOME: join(cwd, "home"),
      XDG_DATA_HOME: join(cwd, "xdg"),
      EMBED_BASE_URL: endpoint.url,
      EMBED_MODEL: "demo:latest",
      EMBED_API_KEY: "quintet",
    };
  });
  after(() => endpoint.close());

  it("loads the shipped sample into the per-user store, says where, and exits 0", async () => {
    const result = await runNode(vectorsBin, ["load"], { cwd, env });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /data\/books\.txt/);
    assert.ok(result.stdout.includes(`\nstore: embedded PGlite at ${store}\n`), result.stdout);
    assert.match(result.stdout, /stored: 68 of 68 data row\(s\)\nids: 11\.\.78\nskipped: 0/);
    assert.match(result.stderr, /progress: 68\/68 rows/);
    assert.ok(existsSync(join(store, "PG_VERSION")), "PGlite data directory created");
    assert.equal(existsSync(join(cwd, ".data")), false, "nothing is kept in the current folder");
  });

  it("answers a query from the data it stored, in a later process run in another folder", async () => {
    const summary =
      "A sailor joins a whaling voyage whose captain is consumed by the hunt for the white whale that once took his leg.";
    const result = await runNode(vectorsBin, ["query", summary, "--json"], { cwd: elsewhere, env });
    assert.equal(result.code, 0, result.stderr);
    assert.ok(result.stderr.includes(`store: embedded PGlite at ${store}\n`), result.stderr);
    assert.equal(existsSync(join(elsewhere, ".data")), false, "no second store");
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

  it("names the directory and creates nothing when query, index or cleanup find no store", async () => {
    const empty = join(cwd, "nowhere");
    const result = await runNode(vectorsBin, ["query", "a whale"], {
      cwd: elsewhere,
      env: { ...env, XDG_DATA_HOME: empty },
    });
    assert.equal(result.code, 1);
    assert.ok(
      result.stderr.includes(
        `vectors query: table docs_vector does not exist (there is no embedded database at ${join(empty, "quintet", "vectors")}); run \`vectors load\` first`,
      ),
      result.stderr,
    );
    const runEmpty = (args: string[]) =>
      runNode(vectorsBin, args, { cwd: elsewhere, env: { ...env, XDG_DATA_HOME: empty } });
    const index = await runEmpty(["index"]);
    assert.equal(index.code, 1);
    assert.match(index.stderr, /there is no embedded database at/);
    const cleanup = await runEmpty(["cleanup"]);
    assert.equal(cleanup.code, 0, cleanup.stderr);
    assert.match(
      cleanup.stdout,
      /^table docs_vector did not exist \(there is no embedded database at /,
    );
    assert.equal(existsSync(empty), false);
  });

  it("exits 2 with the usage when no command is given", async () => {
    const result = await runNode(vectorsBin, [], { cwd, env });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /usage: vectors <command>/);
  });
});
