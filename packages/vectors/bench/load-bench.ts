/**
 * Load throughput: the same dataset loaded through the same embeddings endpoint with batched
 * array requests and with one request per row, in one run. Settings are interleaved over
 * several rounds and every pass gets texts of its own (no server-side cache can help a later
 * pass); the medians are reported.
 */

import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { sampleDataset } from "../src/config.js";
import { createMemoryPglite, wrapPglite } from "../src/db/pglite-client.js";
import { readDataset } from "../src/loader/dataset.js";
import { Embedder, type VectorEncoding } from "../src/loader/embedder.js";
import { createLimiter } from "../src/loader/limiter.js";
import { type LoadSummary, loadDataset } from "../src/loader/load.js";
import { VectorStore } from "../src/store/vector-store.js";

export interface LoadSetting {
  readonly batchSize: number;
  readonly concurrency: number;
}

/** Medians over the rounds; rows, stored, requests and seconds are those of the last load. */
export interface LoadLine extends LoadSetting {
  /** Rows/s of fetching the embeddings alone (same batching, no inserts). */
  readonly embedRowsPerSecond: number;
  readonly rows: number;
  readonly stored: number;
  readonly requests: number;
  readonly seconds: number;
  readonly rowsPerSecond: number;
  /** Every round's figures, in round order. */
  readonly embedSamples: readonly number[];
  readonly loadSamples: readonly number[];
}

/**
 * Writes the sample dataset repeated `copies` times; `tag` is appended to every summary so each
 * pass embeds texts no earlier pass has sent.
 */
export async function repeatedSample(copies: number, tag: string): Promise<string> {
  const [header, ...rows] = (await readFile(sampleDataset, "utf8")).trimEnd().split("\n");
  const lines = [header];
  for (let copy = 1; copy <= copies; copy++) {
    for (const row of rows) lines.push(`${row} (${tag}, copy ${copy})`);
  }
  const path = join(await mkdtemp(join(tmpdir(), "vectors-bench-")), "books.txt");
  await writeFile(path, `${lines.join("\n")}\n`);
  return path;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

function embedder(baseUrl: string): Embedder {
  return new Embedder({
    baseUrl,
    model: "demo:latest",
    apiKey: "quintet",
    timeoutMs: 300_000,
    retries: 3,
    retryBaseMs: 500,
  });
}

/** Fetches every summary's embedding with the setting's batching and concurrency; rows/s. */
async function embedOnly(
  baseUrl: string,
  dataset: string,
  setting: LoadSetting,
  encoding: VectorEncoding = "base64",
): Promise<number> {
  const summaries = (await readDataset(dataset)).rows.map((row) => row.summary);
  const client = embedder(baseUrl);
  client.encoding = encoding;
  const limit = createLimiter(setting.concurrency);
  const start = performance.now();
  const batches: string[][] = [];
  for (let i = 0; i < summaries.length; i += setting.batchSize) {
    batches.push(summaries.slice(i, i + setting.batchSize));
  }
  await Promise.all(batches.map((batch) => limit(() => client.embed(batch))));
  return (summaries.length * 1000) / (performance.now() - start);
}

/** One load of a fresh dataset into an emptied table. */
async function loadOnce(baseUrl: string, dataset: string, setting: LoadSetting, db: PGlite) {
  const store = new VectorStore(wrapPglite(db, false), 2048);
  const summary = await loadDataset(store, embedder(baseUrl), {
    dataset,
    append: false,
    ...setting,
  });
  return { summary, rowsPerSecond: (summary.stored * 1000) / summary.elapsedMs };
}

/**
 * Measures every setting `rounds` times, interleaved: embeddings alone, then a whole load into
 * an in-memory table. Returns the median of each.
 */
export async function runLoadBench(
  baseUrl: string,
  copies: number,
  settings: readonly LoadSetting[],
  rounds: number,
  log: (line: string) => void,
): Promise<LoadLine[]> {
  const db = await createMemoryPglite();
  const samples = settings.map(() => ({
    embed: [] as number[],
    load: [] as number[],
    last: undefined as LoadSummary | undefined,
  }));
  try {
    for (let round = 1; round <= rounds; round++) {
      for (const [i, setting] of settings.entries()) {
        const tag = `round ${round}, batch ${setting.batchSize} x ${setting.concurrency}`;
        const embedRate = await embedOnly(
          baseUrl,
          await repeatedSample(copies, `${tag}, embed`),
          setting,
        );
        const load = await loadOnce(
          baseUrl,
          await repeatedSample(copies, `${tag}, load`),
          setting,
          db,
        );
        const sample = samples[i] as (typeof samples)[number];
        sample.embed.push(embedRate);
        sample.load.push(load.rowsPerSecond);
        sample.last = load.summary;
        log(
          `  ${tag}: ${embedRate.toFixed(1)} embeddings/s, load ${load.rowsPerSecond.toFixed(1)} rows/s`,
        );
      }
    }
  } finally {
    await db.close();
  }
  return settings.map((setting, i) => {
    const sample = samples[i] as (typeof samples)[number];
    const last = sample.last as LoadSummary;
    return {
      ...setting,
      embedRowsPerSecond: median(sample.embed),
      rows: last.dataRows,
      stored: last.stored,
      requests: last.embedRequests,
      seconds: last.elapsedMs / 1000,
      rowsPerSecond: median(sample.load),
      embedSamples: sample.embed,
      loadSamples: sample.load,
    };
  });
}

/** Embeddings-only rows/s of one setting with vectors as JSON numbers and as base64. */
export interface EncodingLine extends LoadSetting {
  readonly float: readonly number[];
  readonly base64: readonly number[];
}

/**
 * The embeddings alone, vectors asked as JSON numbers (`float`) and as base64 float32, in
 * `rounds` rounds; the two alternate, the first of each round taking turns.
 */
export async function runEncodingBench(
  baseUrl: string,
  copies: number,
  settings: readonly LoadSetting[],
  rounds: number,
  log: (line: string) => void,
): Promise<EncodingLine[]> {
  const lines = settings.map((setting) => ({
    ...setting,
    float: [] as number[],
    base64: [] as number[],
  }));
  for (let round = 1; round <= rounds; round++) {
    for (const line of lines) {
      const order: VectorEncoding[] = round % 2 ? ["float", "base64"] : ["base64", "float"];
      for (const encoding of order) {
        const tag = `round ${round}, batch ${line.batchSize} x ${line.concurrency}, ${encoding}`;
        const rate = await embedOnly(baseUrl, await repeatedSample(copies, tag), line, encoding);
        line[encoding].push(rate);
        log(`  ${tag}: ${rate.toFixed(1)} embeddings/s`);
      }
    }
  }
  return lines;
}

export { median };
