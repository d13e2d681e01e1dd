/**
 * The loading procedure: read the dataset, embed the summaries in batches (bounded
 * concurrency), and store the rows in dataset order with doc_id "11", "12", ... counting stored
 * rows only. Rows whose embedding cannot be obtained are skipped and reported.
 */
import { EmbeddingError, messageOf } from "../errors.js";
import type { DocumentRow, VectorStore } from "../store/vector-store.js";
import { checkEmbedding } from "../store/vector-store.js";
import type { DatasetRow, RowProblem } from "./dataset.js";
import { readDataset } from "./dataset.js";
import type { Embedder } from "./embedder.js";
import { createLimiter } from "./limiter.js";

/** doc_id of the first stored row of a fresh table. */
export const firstDocId = 11n;

/** Progress after each batch has been stored. */
export interface LoadProgress {
  readonly done: number;
  readonly total: number;
  readonly stored: number;
  readonly skipped: number;
  readonly elapsedMs: number;
}

export interface LoadOptions {
  readonly dataset: string;
  /** Keep existing rows and continue their ids; otherwise the table is emptied first. */
  readonly append: boolean;
  readonly batchSize: number;
  readonly concurrency: number;
  readonly onProgress?: (progress: LoadProgress) => void;
}

/** A data row that was not stored, and why. */
export interface SkippedRow extends RowProblem {
  readonly title?: string;
}

/** What a load did. */
export interface LoadSummary {
  readonly dataset: string;
  /**
   * "replaced": the previous rows were removed first; "appended": rows were added to them;
   * "unchanged": nothing could be stored, so the previous rows were left as they were.
   */
  readonly mode: "replaced" | "appended" | "unchanged";
  /** Rows in the table before the run (removed when replaced, kept otherwise). */
  readonly previousRows: number;
  /** Data rows in the file (header and blank lines not counted). */
  readonly dataRows: number;
  readonly stored: number;
  readonly skipped: SkippedRow[];
  readonly firstId?: string;
  readonly lastId?: string;
  readonly embedRequests: number;
  readonly elapsedMs: number;
}

/** The outcome for one row of a batch: its embedding, or why there is none. */
type RowResult = { embedding?: number[]; error?: string };

function isClientError(error: unknown): boolean {
  const status = error instanceof EmbeddingError ? error.status : undefined;
  return status !== undefined && status >= 400 && status < 500 && status !== 429;
}

/** Embeds one batch; a failed request becomes per-row errors so no batch throws. */
async function embedBatch(embedder: Embedder, rows: readonly DatasetRow[]): Promise<RowResult[]> {
  try {
    const embeddings = await embedder.embed(rows.map((row) => row.summary));
    return embeddings.map((embedding) => (embedding ? { embedding } : {}));
  } catch (error) {
    // A client error (4xx) on a batch may come from one bad row: ask row by row, one request at
    // a time (the batch already holds its concurrency slot), so the other rows are saved.
    if (rows.length > 1 && isClientError(error)) {
      const results: RowResult[] = [];
      for (const row of rows) results.push(...(await embedBatch(embedder, [row])));
      return results;
    }
    return rows.map(() => ({ error: messageOf(error) }));
  }
}

function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Mutable state of one run, shared by the steps below. */
interface Run {
  readonly store: VectorStore;
  nextId: bigint;
  cleared: boolean;
  readonly stored: string[];
  readonly skipped: SkippedRow[];
}

/** Stores one batch's rows in order; rows without an embedding are recorded as skipped. */
async function storeBatch(
  run: Run,
  batch: readonly DatasetRow[],
  results: readonly RowResult[],
): Promise<void> {
  const docs: DocumentRow[] = [];
  batch.forEach((row, i) => {
    const { embedding, error } = results[i] ?? {};
    if (!embedding) {
      const reason = error ?? "the embeddings response holds no embedding for it";
      run.skipped.push({ line: row.line, title: row.title, reason });
      return;
    }
    // Checked for the whole batch before any of it is stored; the error names both dimensions.
    checkEmbedding(embedding, run.store.dim, `embedding of line ${row.line}`);
    docs.push({ id: "", source: row.title, content: row.summary, embedding });
  });
  // The old rows go only once something new is ready, so a failed run keeps the previous data.
  if (docs.length > 0 && !run.cleared) {
    await run.store.clear();
    run.cleared = true;
  }
  for (const doc of docs) {
    const id = String(run.nextId);
    await run.store.add({ ...doc, id });
    run.stored.push(id);
    run.nextId++;
  }
}

/**
 * Loads a dataset into the store: sets the table up, embeds in batches with bounded
 * concurrency, and stores in dataset order whatever order the batches finish in.
 * @throws DimensionMismatchError before any insert when the embeddings have another size.
 */
export async function loadDataset(
  store: VectorStore,
  embedder: Embedder,
  options: LoadOptions,
): Promise<LoadSummary> {
  const started = Date.now();
  const requestsBefore = embedder.requests;
  const { rows, malformed } = await readDataset(options.dataset);
  await store.setup();
  const previousRows = await store.count();
  const run: Run = {
    store,
    nextId: options.append ? ((await store.maxNumericId()) ?? firstDocId - 1n) + 1n : firstDocId,
    cleared: options.append,
    stored: [],
    skipped: malformed.map((p) => ({ ...p, reason: `malformed: ${p.reason}` })),
  };
  const limit = createLimiter(options.concurrency);
  let stop = false;
  const batches = chunk(rows, options.batchSize);
  // Every batch is queued now; the limiter keeps at most `concurrency` requests in flight.
  const pending = batches.map((batch) =>
    limit(() =>
      stop
        ? Promise.resolve(batch.map(() => ({ error: "load stopped" })))
        : embedBatch(embedder, batch),
    ),
  );
  let done = 0;
  try {
    for (const [index, batch] of batches.entries()) {
      await storeBatch(run, batch, (await pending[index]) ?? []);
      done += batch.length;
      const elapsedMs = Date.now() - started;
      const counts = { stored: run.stored.length, skipped: run.skipped.length };
      options.onProgress?.({ done, total: rows.length, ...counts, elapsedMs });
    }
  } finally {
    stop = true;
    await Promise.allSettled(pending);
  }
  return {
    dataset: options.dataset,
    mode: options.append ? "appended" : run.cleared ? "replaced" : "unchanged",
    previousRows,
    dataRows: rows.length + malformed.length,
    stored: run.stored.length,
    skipped: run.skipped.sort((a, b) => a.line - b.line),
    firstId: run.stored[0],
    lastId: run.stored.at(-1),
    embedRequests: embedder.requests - requestsBefore,
    elapsedMs: Date.now() - started,
  };
}
