/**
 * The loader and the CLI end to end on embedded PGlite stored in a data directory, with a
 * local OpenAI-compatible embeddings endpoint that can be told to fail.
 */
import assert from "node:assert/strict";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { openPgliteClient } from "../src/db/pglite-client.js";
import { runVectors } from "./cli-harness.js";
import {
  deadEndpointUrl,
  type Endpoint,
  type Misbehaviour,
  startEmbeddingsEndpoint,
} from "./embeddings-endpoint.js";

const D = 2048;
const bobby = `Robert'); DROP TABLE docs_vector;-- said "hi" and left`;
const dataset = [
  "title|author|summary",
  "Alpha|A. Author|alpha summary",
  "a broken line without the two pipes",
  "Beta|B. Author|beta summary",
  "Gamma|C. Author|gamma summary",
  "Hole|H. Author|summary the service returns no embedding for",
  "Delta|D. Author|delta summary",
  `Bobby's "Tables"|X. O'Brien|${bobby}`,
  "",
].join("\n");

/** The summary for which the endpoint never returns an embedding. */
const hole = "summary the service returns no embedding for";

/** Fixed vectors so distances can be worked out by hand; other texts get hash vectors. */
const vectors = new Map<string, number[]>([
  ["alpha summary", [1]],
  ["beta summary", [3]],
  ["gamma summary", [0, 2]],
  ["delta summary", [-2, -2]],
  ["one one", [1, 1]],
]);

let plan: ((inputs: readonly string[], n: number) => Misbehaviour | undefined) | undefined;
let endpoint: Endpoint;
let work = "";
let datasetPath = "";

before(async () => {
  endpoint = await startEmbeddingsEndpoint({
    dim: D,
    vectors,
    plan: (inputs, n) => ({ omit: [hole], ...plan?.(inputs, n) }),
  });
  work = await mkdtemp(join(tmpdir(), "vectors-cli-"));
  datasetPath = join(work, "books.txt");
  await writeFile(datasetPath, dataset);
});
after(() => endpoint.close());

/** Environment of a run against its own data directory. */
function envFor(dataDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    VECTORS_DATA_DIR: join(work, dataDir),
    EMBED_BASE_URL: endpoint.url,
    EMBED_MODEL: "demo:latest",
    EMBED_API_KEY: "quintet",
    DOCS_DATASET: datasetPath,
    EMBED_BATCH_SIZE: "2",
    EMBED_CONCURRENCY: "3",
    EMBED_RETRIES: "2",
    EMBED_RETRY_BASE_MS: "5",
    ...extra,
  };
}

type Row = { doc_id: string; doc_source: string; doc_content: string };

async function tableRows(dataDir: string): Promise<Row[]> {
  const client = await openPgliteClient(join(work, dataDir));
  try {
    const { rows } = await client.query<Row>(
      "SELECT doc_id, doc_source, doc_content FROM docs_vector ORDER BY doc_id::int",
    );
    return rows;
  } finally {
    await client.close();
  }
}

const expectedRows: Row[] = [
  { doc_id: "11", doc_source: "Alpha", doc_content: "alpha summary" },
  { doc_id: "12", doc_source: "Beta", doc_content: "beta summary" },
  { doc_id: "13", doc_source: "Gamma", doc_content: "gamma summary" },
  { doc_id: "14", doc_source: "Delta", doc_content: "delta summary" },
  { doc_id: "15", doc_source: `Bobby's "Tables"`, doc_content: bobby },
];

describe("vectors CLI end to end on embedded PGlite", { timeout: 300_000 }, () => {
  it("loads rows in dataset order with ids from 11, skipping the header, bad lines and missing embeddings", async () => {
    // The first batch answers last, so batches finish out of order.
    plan = (_, n) => (n === 1 ? { delayMs: 400 } : undefined);
    const result = await runVectors(["load"], envFor("main"));
    plan = undefined;
    // The row without an embedding is skipped, as the spec says, and the exit status says so.
    assert.equal(result.code, 3, result.stderr);
    assert.deepEqual(await tableRows("main"), expectedRows);
    assert.match(result.stdout, /mode: replaced/);
    assert.match(result.stdout, /stored: 5 of 7 data row\(s\)/);
    assert.match(result.stdout, /ids: 11\.\.15/);
    assert.match(
      result.stdout,
      /skipped: 2\n {2}line 3: malformed: expected 3 fields .* found 1\n/,
    );
    assert.match(result.stdout, /line 6 "Hole": the embeddings response holds no embedding for it/);
    assert.match(result.stderr, /progress: 6\/6 rows/);
    assert.ok(endpoint.arrayInputs.every(Boolean), "every batch is sent as array input");
    assert.ok(
      endpoint.requests.every((inputs) => inputs.length <= 2),
      "batches of EMBED_BATCH_SIZE",
    );
    assert.ok(
      endpoint.maxInFlight() <= 3,
      `at most EMBED_CONCURRENCY in flight, saw ${endpoint.maxInFlight()}`,
    );
  });

  it("answers a query with the three nearest documents and their hand-computed distances", async () => {
    const json = await runVectors(["query", "one one", "--json"], envFor("main"));
    assert.equal(json.code, 0, json.stderr);
    const hits = JSON.parse(json.stdout) as Array<Row & { distance: number }>;
    assert.deepEqual(
      hits.map(({ doc_id, doc_source, doc_content }) => ({ doc_id, doc_source, doc_content })),
      [expectedRows[0], expectedRows[2], expectedRows[1]],
    );
    // (1,1) to (1): 1; to (0,2): sqrt 2; to (3): sqrt 5.
    [1, Math.SQRT2, Math.sqrt(5)].forEach((d, i) => {
      assert.ok(Math.abs((hits[i]?.distance ?? 0) - d) < 1e-6);
    });
    const table = await runVectors(["query", "one one"], envFor("main"));
    const lines = table.stdout.trimEnd().split("\n");
    assert.match(lines[0] ?? "", /^doc_id\s+doc_source\s+doc_content\s+distance$/);
    assert.match(lines[2] ?? "", /^11\s+Alpha\s+alpha summary\s+1\.000000$/);
    assert.match(lines[3] ?? "", /^13\s+Gamma\s+gamma summary\s+1\.414214$/);
    assert.match(lines[4] ?? "", /^12\s+Beta\s+beta summary\s+2\.236068$/);
  });

  it("starts again from id 11 on a re-run; --append adds only rows not stored yet", async () => {
    const again = await runVectors(["load"], envFor("main"));
    assert.match(again.stdout, /mode: replaced; the new rows took the place of the 5 old row\(s\)/);
    assert.match(again.stdout, /ids: 11\.\.15/);
    assert.equal((await tableRows("main")).length, 5);
    const appended = await runVectors(["load", "--append"], envFor("main"));
    assert.equal(appended.code, 3, appended.stderr);
    assert.match(appended.stdout, /mode: appended to 5 existing row\(s\) \(--append\)/);
    assert.match(appended.stdout, /stored: 0 of 7/);
    assert.match(appended.stdout, /already stored: 5 \(same title and summary/);
    const extra = join(work, "more.txt");
    await writeFile(extra, `${dataset}Epsilon|E. Author|epsilon summary\n`);
    const more = await runVectors(["load", "--append", "--dataset", extra], envFor("main"));
    assert.match(more.stdout, /stored: 1 of 8/);
    assert.match(more.stdout, /ids: 16\.\.16/);
    const rows = await tableRows("main");
    assert.deepEqual(
      rows.map((r) => r.doc_id),
      ["11", "12", "13", "14", "15", "16"],
    );
    assert.equal(rows[5]?.doc_content, "epsilon summary");
  });

  it("builds the halfvec HNSW index and keeps answering the same nearest three", async () => {
    const built = await runVectors(["index"], envFor("main"));
    assert.equal(built.code, 0, built.stderr);
    assert.match(built.stdout, /docs_vector_embedding_hnsw/);
    assert.match(built.stdout, /halfvec\(2048\)\) halfvec_l2_ops/);
    const approx = JSON.parse(
      (await runVectors(["query", "one one", "--json"], envFor("main"))).stdout,
    );
    const exact = JSON.parse(
      (await runVectors(["query", "one one", "--json", "--exact"], envFor("main"))).stdout,
    );
    assert.deepEqual(approx, exact);
    assert.equal(approx[0].doc_source, "Alpha");
  });

  it("keeps the previous rows and says why when the embedding service is down", async () => {
    const dead = await deadEndpointUrl();
    const down = await runVectors(
      ["load"],
      envFor("main", { EMBED_BASE_URL: dead, EMBED_RETRIES: "1" }),
    );
    assert.equal(down.code, 1);
    assert.ok(
      down.stderr.includes(
        "load aborted: the embeddings endpoint failed 3 batch(es) in a row (EMBED_MAX_FAILED_BATCHES=3); " +
          `last: embeddings request failed after 2 attempts: cannot connect to ${dead}/embeddings ` +
          "(ECONNREFUSED; is the server at EMBED_BASE_URL running?)",
      ),
      down.stderr,
    );
    assert.match(down.stderr, /docs_vector was not changed: it holds its 6 previous row\(s\)/);
    assert.equal((await tableRows("main")).length, 6);
    // Fewer failed batches than the limit: the rows are skipped and the load reports it.
    const two = await runVectors(
      ["load"],
      envFor("main", { EMBED_BASE_URL: await deadEndpointUrl(), EMBED_MAX_FAILED_BATCHES: "4" }),
    );
    assert.equal(two.code, 1);
    assert.match(
      two.stdout,
      /mode: nothing stored, so the 6 existing row\(s\) were left unchanged/,
    );
    assert.equal((two.stdout.match(/cannot connect/g) ?? []).length, 6);
    assert.equal((await tableRows("main")).length, 6);
  });

  it("skips the rows of a batch the service keeps failing and stores the rest in order", async () => {
    plan = (inputs) => (inputs.includes("beta summary") ? { status: 500 } : undefined);
    const partial = await runVectors(["load"], envFor("partial"));
    plan = undefined;
    assert.equal(partial.code, 3, partial.stderr);
    // Batches of two data rows: [Alpha, Beta] fails, [Gamma, Hole] and [Delta, Bobby] succeed.
    assert.match(partial.stdout, /stored: 3 of 7/);
    assert.match(
      partial.stdout,
      /line 2 "Alpha": embeddings request failed after 3 attempts: HTTP 500/,
    );
    assert.match(
      partial.stdout,
      /line 4 "Beta": embeddings request failed after 3 attempts: HTTP 500/,
    );
    assert.deepEqual(
      (await tableRows("partial")).map((r) => [r.doc_id, r.doc_source]),
      [
        ["11", "Gamma"],
        ["12", "Delta"],
        ["13", `Bobby's "Tables"`],
      ],
    );
  });

  it("isolates a row the service refuses with 400 and keeps the rest of its batch", async () => {
    plan = (inputs) => (inputs.includes("gamma summary") ? { status: 400 } : undefined);
    const result = await runVectors(["load"], envFor("poison", { EMBED_BATCH_SIZE: "4" }));
    plan = undefined;
    assert.equal(result.code, 3, result.stderr);
    assert.match(result.stdout, /stored: 4 of 7/);
    assert.match(result.stdout, /line 5 "Gamma": embeddings request failed: HTTP 400/);
    assert.deepEqual(
      (await tableRows("poison")).map((r) => r.doc_source),
      ["Alpha", "Beta", "Delta", `Bobby's "Tables"`],
    );
  });

  it("refuses embeddings of another dimension before inserting anything", async () => {
    const small = await startEmbeddingsEndpoint({ dim: 16 });
    try {
      const result = await runVectors(["load"], envFor("mismatch", { EMBED_BASE_URL: small.url }));
      assert.equal(result.code, 1);
      assert.match(result.stderr, /has dimension 16 but EMBED_DIM is 2048/);
      assert.deepEqual(await tableRows("mismatch"), []);
    } finally {
      await small.close();
    }
    const table = await runVectors(["load"], envFor("mismatch", { EMBED_DIM: "1024" }));
    assert.equal(table.code, 1);
    assert.match(
      table.stderr,
      /existing table docs_vector has dimension 2048 but EMBED_DIM is 1024/,
    );
  });

  it("skips a line with a NUL byte or bad UTF-8 by its number and loads the rest, also with --append", async () => {
    const lines = (extra: Buffer[]) =>
      Buffer.concat([
        Buffer.from("title|author|summary\nOne|a|first clean\nNul|b|has a \u0000 inside\n"),
        Buffer.from("Two|c|second clean\nLatin|d|caf"),
        Buffer.from([0xe9]),
        Buffer.from("\nThree|e|third clean\n"),
        ...extra,
      ]);
    const path = join(work, "nul.txt");
    await writeFile(path, lines([]));
    const fresh = await runVectors(["load", "--dataset", path], envFor("nul"));
    assert.equal(fresh.code, 0, fresh.stderr);
    assert.match(fresh.stdout, /stored: 3 of 5 data row\(s\)/);
    assert.match(fresh.stdout, /line 3: malformed: the summary holds a NUL byte/);
    assert.match(
      fresh.stdout,
      /line 5: malformed: not valid UTF-8 text \(byte 0xe9 at byte 12 of the line\)/,
    );
    await writeFile(path, lines([Buffer.from("Four|f|fourth clean\nNul2|g|\u0000\n")]));
    const more = await runVectors(["load", "--append", "--dataset", path], envFor("nul"));
    assert.equal(more.code, 0, more.stderr);
    assert.match(more.stdout, /stored: 1 of 7 data row\(s\)\nalready stored: 3/);
    assert.match(
      more.stdout,
      /skipped: 3\n {2}line 3: .*NUL.*\n {2}line 5: .*UTF-8.*\n {2}line 8: .*NUL/,
    );
    assert.deepEqual(
      (await tableRows("nul")).map((r) => [r.doc_id, r.doc_source]),
      [
        ["11", "One"],
        ["12", "Two"],
        ["13", "Three"],
        ["14", "Four"],
      ],
    );
  });

  it("names the embeddings URL it tried when the model server is down for a query", async () => {
    const dead = await deadEndpointUrl();
    const query = await runVectors(
      ["query", "one one"],
      envFor("main", { EMBED_BASE_URL: dead, EMBED_RETRIES: "0" }),
    );
    assert.equal(query.code, 1);
    assert.equal(query.stdout, "");
    assert.ok(
      query.stderr.includes(
        `vectors query: embeddings request failed: cannot connect to ${dead}/embeddings (ECONNREFUSED`,
      ),
      query.stderr,
    );
  });

  it("drops the table on cleanup, after which a query says to run vectors load first", async () => {
    const dropped = await runVectors(["cleanup"], envFor("main"));
    assert.equal(dropped.code, 0);
    assert.equal(dropped.stdout, "dropped table docs_vector\n");
    const query = await runVectors(["query", "one one"], envFor("main"));
    assert.equal(query.code, 1);
    assert.ok(
      query.stderr.includes(
        `table docs_vector does not exist in embedded PGlite at ${join(work, "main")}; run \`vectors load\` first`,
      ),
      query.stderr,
    );
    assert.equal(
      (await runVectors(["cleanup"], envFor("main"))).stdout,
      "table docs_vector did not exist\n",
    );
  });

  it("draws a progress bar with rows, rows/s and ETA when stderr is a terminal", async () => {
    const result = await runVectors(["load"], envFor("tty"), { tty: true });
    assert.equal(result.code, 3, result.stderr);
    assert.ok(result.stderr.includes("\r\u001b[2K["), "redraws the line in place");
    assert.match(result.stderr, /\[#+-*\] \d+\/6 rows {2}[\d.]+ rows\/s {2}ETA \d+s/);
    assert.doesNotMatch(result.stderr, /progress:/);
  });
});

describe("vectors CLI input errors", () => {
  it("exits 2 naming the variable when the configuration is invalid", async () => {
    const result = await runVectors(["query", "x"], {
      EMBED_BASE_URL: "http://127.0.0.1:1/api",
      EMBED_DIM: "abc",
    });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /EMBED_BASE_URL must be an http\(s\) URL ending with \/v1/);
    assert.match(result.stderr, /EMBED_DIM must be a whole number/);
  });

  it("exits 2 for an unknown command, an unknown option or a missing query text", async () => {
    assert.equal((await runVectors(["frobnicate"], {})).code, 2);
    const option = await runVectors(["load", "--bogus"], {});
    assert.equal(option.code, 2);
    assert.match(option.stderr, /--bogus/);
    const empty = await runVectors(["query"], {});
    assert.equal(empty.code, 2);
    assert.match(empty.stderr, /exactly one non-empty text/);
    assert.equal((await runVectors(["index", "--m", "zero"], {})).code, 2);
  });

  it("names the dataset (and DOCS_DATASET) when it cannot be read", async () => {
    const env = envFor("unreadable", { DOCS_DATASET: join(work, "no-such.txt") });
    const fromEnv = await runVectors(["load"], env);
    assert.equal(fromEnv.code, 1);
    assert.match(fromEnv.stderr, /DOCS_DATASET: cannot read dataset .*no-such\.txt/);
    const fromFlag = await runVectors(["load", "--dataset", join(work, "other.txt")], env);
    assert.match(fromFlag.stderr, /cannot read dataset .*other\.txt/);
  });

  it("prints the commands and every variable for --help", async () => {
    const help = await runVectors(["--help"], {});
    assert.equal(help.code, 0);
    for (const word of [
      "load",
      "query",
      "index",
      "cleanup",
      "PG_VECTOR_DB",
      "EMBED_DIM",
      "DOCS_DATASET",
    ]) {
      assert.match(help.stdout, new RegExp(word));
    }
  });
});
