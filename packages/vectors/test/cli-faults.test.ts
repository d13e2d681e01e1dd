/**
 * The CLI on embedded PGlite when things go wrong or get asked for more: a wrong key or model,
 * Ctrl-C in the middle of a load, a second process on the data directory, `-k` and
 * `--distance`, and the server's notices during an index build.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { lockFileName } from "../src/db/data-dir-lock.js";
import { openPgliteClient } from "../src/db/pglite-client.js";
import { vectorsBin } from "./child-process.js";
import { runVectors } from "./cli-harness.js";
import {
  type Endpoint,
  type Misbehaviour,
  startEmbeddingsEndpoint,
} from "./embeddings-endpoint.js";

const D = 2048;
let plan: ((inputs: readonly string[]) => Misbehaviour | undefined) | undefined;
let endpoint: Endpoint;
let work = "";

/** A dataset of `rows` rows named after `tag`. */
async function dataset(tag: string, rows: number): Promise<string> {
  const lines = ["title|author|summary"];
  for (let i = 0; i < rows; i++) lines.push(`${tag} ${i}|author|${tag} summary ${i}`);
  const path = join(work, `${tag}.txt`);
  await writeFile(path, `${lines.join("\n")}\n`);
  return path;
}

function envFor(dataDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    VECTORS_DATA_DIR: join(work, dataDir),
    EMBED_BASE_URL: endpoint.url,
    EMBED_BATCH_SIZE: "4",
    EMBED_CONCURRENCY: "1",
    // Retries cover a keep-alive socket the endpoint closed while PGlite was busy (ECONNRESET).
    EMBED_RETRIES: "2",
    EMBED_RETRY_BASE_MS: "5",
    ...extra,
  };
}

async function count(dataDir: string): Promise<number> {
  const client = await openPgliteClient(join(work, dataDir));
  try {
    const {
      rows: [row],
    } = await client.query<{ n: number }>("SELECT count(*)::int AS n FROM docs_vector");
    return row?.n ?? -1;
  } finally {
    await client.close();
  }
}

before(async () => {
  endpoint = await startEmbeddingsEndpoint({ dim: D, plan: (inputs) => plan?.(inputs) });
  work = await mkdtemp(join(tmpdir(), "vectors-faults-"));
});
after(() => endpoint.close());

describe("vectors CLI under faults", { timeout: 900_000 }, () => {
  it("stops after the first answer when the key is refused or the model unknown", async () => {
    const path = await dataset("key", 20);
    for (const [status, variable] of [
      [401, "EMBED_API_KEY"],
      [403, "EMBED_API_KEY"],
      [404, "EMBED_MODEL"],
    ] as const) {
      plan = () => ({ status });
      const sent = endpoint.requests.length;
      const result = await runVectors(["load", "--dataset", path], envFor("key"));
      plan = undefined;
      assert.equal(result.code, 1, result.stderr);
      assert.equal(endpoint.requests.length - sent, 1, "one request, not one per row");
      assert.match(result.stderr, new RegExp(`load aborted: .*HTTP ${status}.*check ${variable}`));
    }
  });

  it("keeps the old rows and exits 130 when interrupted with SIGINT", async () => {
    const env = { ...process.env, ...envFor("sigint") };
    const first = await runVectors(["load", "--dataset", await dataset("before", 6)], env);
    assert.equal(first.code, 0, first.stderr);
    const slow = await dataset("slow", 60);
    plan = () => ({ delayMs: 200 });
    const child = spawn(process.execPath, [vectorsBin, "load", "--dataset", slow], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    let sent = false;
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
      // Once: a second Ctrl-C ends the process at once, by design.
      if (!sent && /progress: [1-9]/.test(stderr)) {
        sent = true;
        child.kill("SIGINT");
      }
    });
    const code = await exited;
    plan = undefined;
    assert.equal(code, 130, stderr);
    assert.match(stderr, /load aborted: interrupted/);
    assert.match(stderr, /docs_vector was not changed: it holds its 6 previous row\(s\)/);
    assert.equal(await count("sigint"), 6);
  });

  it("refuses a second process on the data directory and takes over a stale lock", async () => {
    const path = await dataset("lock", 3);
    const holder = await openPgliteClient(join(work, "locked"));
    try {
      const busy = await runVectors(["load", "--dataset", path], envFor("locked"));
      assert.equal(busy.code, 4);
      assert.match(busy.stderr, /the embedded database .*locked is in use by this process/);
      assert.match(busy.stderr, /vectors\.lock/);
    } finally {
      await holder.close();
    }
    // A lock left by a process that is gone (a pid that cannot exist) does not block.
    await writeFile(join(work, "locked", lockFileName), "2147483646\n");
    const ok = await runVectors(["load", "--dataset", path], envFor("locked"));
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(await count("locked"), 3);
  });

  it("answers -k rows and --distance through a matching index, else an exact scan with a note", async () => {
    const env = envFor("knn");
    assert.equal((await runVectors(["load", "--dataset", await dataset("knn", 12)], env)).code, 0);
    const five = await runVectors(["query", "knn summary 3", "-k", "5", "--json"], env);
    assert.equal(five.code, 0, five.stderr);
    const hits = JSON.parse(five.stdout) as Array<{ doc_content: string; distance: number }>;
    assert.equal(hits.length, 5);
    assert.equal(hits[0]?.doc_content, "knn summary 3");
    assert.equal(hits[0]?.distance, 0);
    assert.equal(JSON.parse((await runVectors(["query", "x", "--json"], env)).stdout).length, 3);
    assert.equal((await runVectors(["index"], env)).code, 0);
    const cosine = await runVectors(["query", "knn summary 3", "--distance", "cosine"], env);
    assert.equal(cosine.code, 0, cosine.stderr);
    assert.match(cosine.stderr, /no HNSW index for cosine distance, so every row is scanned/);
    assert.match(cosine.stdout, /^14\s+knn 3\s/m);
    const built = await runVectors(["index", "--distance", "cosine"], env);
    assert.match(built.stdout, /docs_vector_embedding_hnsw_cosine .*|halfvec_cosine_ops/);
    const indexed = await runVectors(["query", "knn summary 3", "--distance", "cosine"], env);
    assert.doesNotMatch(indexed.stderr, /every row is scanned/);
    assert.equal((await runVectors(["query", "x", "-k", "0"], env)).code, 2);
    assert.equal((await runVectors(["query", "x", "--distance", "hamming"], env)).code, 2);
  });

  it("logs PostgreSQL's notices during an index build (graph outgrowing maintenance_work_mem)", async () => {
    const env = envFor("notice", { EMBED_BATCH_SIZE: "64", EMBED_CONCURRENCY: "2" });
    const load = await runVectors(["load", "--dataset", await dataset("notice", 300)], env);
    assert.equal(load.code, 0, `${load.stdout}\n${load.stderr}`);
    const small = await runVectors(["index"], { ...env, VECTORS_MAINTENANCE_WORK_MEM: "1MB" });
    assert.equal(small.code, 0, small.stderr);
    assert.match(small.stderr, /building with maintenance_work_mem=1MB/);
    assert.match(small.stderr, /notice: hnsw graph no longer fits into maintenance_work_mem/);
    const client = await openPgliteClient(join(work, "notice"));
    await client.query("DROP INDEX docs_vector_embedding_hnsw");
    await client.close();
    const roomy = await runVectors(["index"], env);
    assert.match(roomy.stderr, /maintenance_work_mem=1GB/);
    assert.doesNotMatch(roomy.stderr, /no longer fits/);
  });
});
