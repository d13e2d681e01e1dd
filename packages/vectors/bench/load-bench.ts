/**
 * Load throughput: the same dataset loaded through the same embeddings endpoint with batched
 * array requests and with one request per row, in one run.
 */
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sampleDataset } from "../src/config.js";
import { createMemoryPglite, wrapPglite } from "../src/db/pglite-client.js";
import { readDataset } from "../src/loader/dataset.js";
import { Embedder } from "../src/loader/embedder.js";
import { createLimiter } from "../src/loader/limiter.js";
import { loadDataset } from "../src/loader/load.js";
import { VectorStore } from "../src/store/vector-store.js";

export interface LoadSetting {
  readonly batchSize: number;
  readonly concurrency: number;
}

export interface LoadLine extends LoadSetting {
  /** Rows/s of fetching the embeddings alone (same batching, no inserts). */
  readonly embedRowsPerSecond: number;
  readonly rows: number;
  readonly stored: number;
  readonly requests: number;
  readonly seconds: number;
  readonly rowsPerSecond: number;
}

/** Writes the sample dataset repeated `copies` times (each copy's summaries made distinct). */
export async function repeatedSample(copies: number): Promise<string> {
  const [header, ...rows] = (await readFile(sampleDataset, "utf8")).trimEnd().split("\n");
  const lines = [header];
  for (let copy = 1; copy <= copies; copy++) {
    for (const row of rows) lines.push(copy === 1 ? row : `${row} (copy ${copy})`);
  }
  const path = join(await mkdtemp(join(tmpdir(), "vectors-bench-")), "books.txt");
  await writeFile(path, `${lines.join("\n")}\n`);
  return path;
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
async function embedOnly(baseUrl: string, dataset: string, setting: LoadSetting): Promise<number> {
  const summaries = (await readDataset(dataset)).rows.map((row) => row.summary);
  const client = embedder(baseUrl);
  const limit = createLimiter(setting.concurrency);
  const start = performance.now();
  const batches: string[][] = [];
  for (let i = 0; i < summaries.length; i += setting.batchSize) {
    batches.push(summaries.slice(i, i + setting.batchSize));
  }
  await Promise.all(batches.map((batch) => limit(() => client.embed(batch))));
  return (summaries.length * 1000) / (performance.now() - start);
}

/** Loads `dataset` once per setting into a fresh in-memory table and reports rows/s. */
export async function runLoadBench(
  baseUrl: string,
  dataset: string,
  settings: readonly LoadSetting[],
  log: (line: string) => void,
): Promise<LoadLine[]> {
  const db = await createMemoryPglite();
  const lines: LoadLine[] = [];
  try {
    for (const setting of settings) {
      const embedRowsPerSecond = await embedOnly(baseUrl, dataset, setting);
      const store = new VectorStore(wrapPglite(db, false), 2048);
      const summary = await loadDataset(store, embedder(baseUrl), {
        dataset,
        append: false,
        ...setting,
      });
      const seconds = summary.elapsedMs / 1000;
      lines.push({
        ...setting,
        embedRowsPerSecond,
        rows: summary.dataRows,
        stored: summary.stored,
        requests: summary.embedRequests,
        seconds,
        rowsPerSecond: summary.stored / seconds,
      });
      const rates = `${embedRowsPerSecond.toFixed(1)} embeddings/s, load ${(summary.stored / seconds).toFixed(1)} rows/s`;
      log(`  batch ${setting.batchSize} x ${setting.concurrency}: ${rates}`);
    }
  } finally {
    await db.close();
  }
  return lines;
}
