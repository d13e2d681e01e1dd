/**
 * Load throughput: the same dataset loaded through the same embeddings endpoint with batched
 * array requests and with one request per row, in one run.
 */
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sampleDataset } from "../src/config.js";
import { createMemoryPglite, wrapPglite } from "../src/db/pglite-client.js";
import { Embedder } from "../src/loader/embedder.js";
import { loadDataset } from "../src/loader/load.js";
import { VectorStore } from "../src/store/vector-store.js";

export interface LoadSetting {
  readonly batchSize: number;
  readonly concurrency: number;
}

export interface LoadLine extends LoadSetting {
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
      const store = new VectorStore(wrapPglite(db, false), 2048);
      const embedder = new Embedder({
        baseUrl,
        model: "demo:latest",
        apiKey: "quintet",
        timeoutMs: 300_000,
        retries: 3,
        retryBaseMs: 500,
      });
      const summary = await loadDataset(store, embedder, { dataset, append: false, ...setting });
      const seconds = summary.elapsedMs / 1000;
      lines.push({
        ...setting,
        rows: summary.dataRows,
        stored: summary.stored,
        requests: summary.embedRequests,
        seconds,
        rowsPerSecond: summary.stored / seconds,
      });
      log(
        `  batch ${setting.batchSize} x ${setting.concurrency}: ${(summary.stored / seconds).toFixed(1)} rows/s`,
      );
    }
  } finally {
    await db.close();
  }
  return lines;
}
