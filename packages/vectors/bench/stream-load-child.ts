/**
 * One load in a process of its own, so its peak RSS is the load's alone. Run by
 * stream-bench.ts: `node stream-load-child.js <code dist dir> <dataset> <database> <base url>`,
 * the database being a PGlite directory or a `postgres://` URL.
 * The code directory is this build's dist (or an older build's, for a baseline): the loader,
 * store and driver are imported from it.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [codeDir, dataset, database, baseUrl] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
];

async function main(): Promise<void> {
  const from = (path: string) => import(pathToFileURL(join(codeDir, path)).href);
  const { openPgliteClient } = await from("src/db/pglite-client.js");
  const { openPgClient } = await from("src/db/pg-client.js");
  const { VectorStore } = await from("src/store/vector-store.js");
  const { Embedder } = await from("src/loader/embedder.js");
  const { loadDataset } = await from("src/loader/load.js");
  const client = database.startsWith("postgres://")
    ? await openPgClient(database)
    : await openPgliteClient(database);
  const store = new VectorStore(client, 2048);
  const embedder = new Embedder({
    baseUrl,
    model: "bench",
    apiKey: "bench",
    timeoutMs: 300_000,
    retries: 3,
    retryBaseMs: 500,
  });
  const started = performance.now();
  const summary = await loadDataset(store, embedder, {
    dataset,
    append: false,
    batchSize: 32,
    concurrency: 2,
  });
  const seconds = (performance.now() - started) / 1000;
  await store.close();
  const peakRssMiB = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(
    `${JSON.stringify({ stored: summary.stored, seconds, rowsPerSecond: summary.stored / seconds, peakRssMiB })}\n`,
  );
}

main().catch((error) => {
  process.stderr.write(`load failed: ${error instanceof Error ? error.stack : error}\n`);
  process.exitCode = 1;
});
