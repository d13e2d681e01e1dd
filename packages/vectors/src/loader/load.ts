/**
 * The loading procedure: stream the dataset, embed the summaries in batches (at most
 * `concurrency` requests in flight), and store the rows in dataset order with doc_id "11",
 * "12", ... counting stored rows only. Rows whose embedding cannot be obtained are skipped and
 * reported. A replace load writes into a staging table swapped in only when it is complete; an
 * append stores only rows whose title and summary are not stored yet, so a re-run resumes.
 */
import { withTransaction } from "../db/sql-client.js";
import { LoadAbortedError, messageOf } from "../errors.js";
import { lockTable } from "../store/load-lock.js";
import * as sql from "../store/sql.js";
import { createStaging, dropStaging, swapStaging } from "../store/table-swap.js";
import type { VectorStore } from "../store/vector-store.js";
import { checkEmbedding, contentKeyOf } from "../store/vector-store.js";
import type { DatasetRow, RowProblem } from "./dataset.js";
import { countDataset, isProblem, streamDataset } from "./dataset.js";
import { type BatchOutcome, embedBatch, type RowResult } from "./embed-batch.js";
import type { Embedder } from "./embedder.js";

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
  /** Keep existing rows, continue their ids and store only missing rows; else replace them. */
  readonly append: boolean;
  readonly batchSize: number;
  readonly concurrency: number;
  /** Batches in a row whose request failed after which the load stops (default 3). */
  readonly maxFailedBatches?: number;
  /** Aborting it stops the load at the next batch (Ctrl-C); nothing half-done is kept. */
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: LoadProgress) => void;
  /** Diagnostics (index rebuilds) for stderr. */
  readonly log?: (line: string) => void;
}

/** A data row that was not stored, and why. */
export interface SkippedRow extends RowProblem {
  readonly title?: string;
}

/** What a load did. */
export interface LoadSummary {
  readonly dataset: string;
  /** Which database the rows went to (the client's location), when it says. */
  readonly store?: string;
  /**
   * "replaced": the new rows took the old ones' place; "appended": rows were added to them;
   * "unchanged": nothing could be stored, so the previous rows were left as they were.
   */
  readonly mode: "replaced" | "appended" | "unchanged";
  /** Rows in the table before the run (replaced, or kept). */
  readonly previousRows: number;
  /** Data rows in the file (header and blank lines not counted). */
  readonly dataRows: number;
  readonly stored: number;
  /** Rows not stored because a row with the same title and summary already was. */
  readonly alreadyStored: number;
  readonly skipped: SkippedRow[];
  /** How many of `skipped` lack an embedding (as opposed to malformed lines). */
  readonly embeddingFailures: number;
  readonly firstId?: string;
  readonly lastId?: string;
  readonly embedRequests: number;
  readonly elapsedMs: number;
}

/** What is stored so far (by the run, or by one batch until it commits). */
interface Tally {
  nextId: bigint;
  stored: number;
  alreadyStored: number;
  firstId?: string;
  lastId?: string;
}

/** Mutable state of one run, shared by the steps below. */
interface Run extends Tally {
  readonly store: VectorStore;
  readonly table: sql.TableName;
  embeddingFailures: number;
  readonly skipped: SkippedRow[];
}

/** A batch on its way: its rows and the promise of their embeddings (never rejects). */
interface Pending {
  readonly rows: readonly DatasetRow[];
  readonly outcome: Promise<BatchOutcome>;
}

/** Stores one batch's rows in order, in one transaction; rows without an embedding are skipped. */
async function storeBatch(
  run: Run,
  batch: readonly DatasetRow[],
  results: readonly RowResult[],
): Promise<void> {
  const ready: Array<{ row: DatasetRow; embedding: number[] }> = [];
  batch.forEach((row, i) => {
    const { embedding, error } = results[i] ?? {};
    if (!embedding) {
      const reason = error ?? "the embeddings response holds no embedding for it";
      run.skipped.push({ line: row.line, title: row.title, reason });
      run.embeddingFailures++;
      return;
    }
    // Checked for the whole batch before any of it is stored; the error names both dimensions.
    checkEmbedding(embedding, run.store.dim, `embedding of line ${row.line}`);
    ready.push({ row, embedding });
  });
  if (ready.length === 0) return;
  // Counted apart and applied only after COMMIT: a batch that rolls back added nothing, so a
  // stopped load reports only the rows that are really in the table.
  const batchRun: Tally = { nextId: run.nextId, stored: 0, alreadyStored: 0 };
  await withTransaction(run.store.client, async () => {
    for (const { row, embedding } of ready) {
      const id = String(batchRun.nextId);
      const doc = { id, source: row.title, content: row.summary, embedding };
      if (!(await run.store.add(doc, run.table))) {
        batchRun.alreadyStored++;
        continue;
      }
      batchRun.firstId ??= id;
      batchRun.lastId = id;
      batchRun.stored++;
      batchRun.nextId++;
    }
  });
  run.nextId = batchRun.nextId;
  run.stored += batchRun.stored;
  run.alreadyStored += batchRun.alreadyStored;
  run.firstId ??= batchRun.firstId;
  run.lastId = batchRun.lastId ?? run.lastId;
}

/** Reads the stream into batches of well-formed rows; problem lines are recorded as skipped. */
async function* batchesOf(
  items: AsyncIterable<DatasetRow | RowProblem>,
  size: number,
  run: Run,
): AsyncGenerator<DatasetRow[]> {
  let batch: DatasetRow[] = [];
  for await (const item of items) {
    if (isProblem(item)) {
      run.skipped.push({ line: item.line, reason: `malformed: ${item.reason}` });
      continue;
    }
    batch.push(item);
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/** Drops the rows of an append batch that are stored already, so they are not embedded again. */
async function missingRows(run: Run, rows: DatasetRow[]): Promise<DatasetRow[]> {
  const present = await run.store.existingKeys(
    rows.map((row) => contentKeyOf(row.title, row.summary)),
    run.table,
  );
  if (present.size === 0) return rows;
  const missing = rows.filter((row) => !present.has(contentKeyOf(row.title, row.summary)));
  run.alreadyStored += rows.length - missing.length;
  return missing;
}

/** What the table holds after a stopped load, in words. */
async function tableState(store: VectorStore, options: LoadOptions, run: Run): Promise<string> {
  let rows: number;
  try {
    rows = await store.count();
  } catch (error) {
    return `could not check what docs_vector holds now: ${messageOf(error)}`;
  }
  if (!options.append) {
    return (
      `docs_vector was not changed: it holds its ${rows} previous row(s); the ${run.stored} ` +
      "row(s) this run had stored were discarded"
    );
  }
  return (
    `docs_vector now holds ${rows} row(s), ${run.stored} of them added by this run; run ` +
    "`vectors load --append` again to add the rest (stored rows are not sent again)"
  );
}

/**
 * Runs the pipeline: keeps up to `concurrency` batches embedding while the oldest is stored,
 * so rows are stored in dataset order and memory holds only those batches.
 */
async function pump(
  run: Run,
  embedder: Embedder,
  options: LoadOptions,
  total: number,
  stop: AbortSignal,
) {
  const started = Date.now();
  const source = batchesOf(streamDataset(options.dataset), options.batchSize, run);
  const window: Pending[] = [];
  const limit = options.maxFailedBatches ?? 3;
  let exhausted = false;
  let failedInARow = 0;
  let done = 0;
  const refill = async () => {
    while (!exhausted && window.length < options.concurrency) {
      const next = await source.next();
      if (next.done) {
        exhausted = true;
        break;
      }
      done += next.value.length;
      const rows = options.append ? await missingRows(run, next.value) : next.value;
      window.push({ rows, outcome: embedBatch(embedder, rows, stop) });
    }
  };
  await refill();
  for (let head = window.shift(); head; head = window.shift()) {
    const outcome = await head.outcome;
    if (options.signal?.aborted) throw new Interrupted();
    if (outcome.fatal) throw outcome.fatal;
    failedInARow = outcome.failed ? failedInARow + 1 : 0;
    if (failedInARow >= limit) {
      throw new Error(
        `the embeddings endpoint failed ${failedInARow} batch(es) in a row ` +
          `(EMBED_MAX_FAILED_BATCHES=${limit}); last: ${outcome.failed}`,
      );
    }
    await refill();
    await storeBatch(run, head.rows, outcome.results);
    const counts = { stored: run.stored, skipped: run.skipped.length };
    const doneSoFar = done - window.reduce((n, p) => n + p.rows.length, 0);
    options.onProgress?.({ done: doneSoFar, total, ...counts, elapsedMs: Date.now() - started });
  }
}

/** Thrown inside the pipeline when the load's signal was aborted. */
class Interrupted extends Error {
  constructor() {
    super("interrupted (SIGINT/SIGTERM)");
  }
}

/**
 * Loads a dataset into the store under the table's writer lock.
 * @throws LoadAbortedError when the load stopped before it was complete, saying what the table
 *   holds now; DimensionMismatchError (before any change) when the table has another size.
 */
export async function loadDataset(
  store: VectorStore,
  embedder: Embedder,
  options: LoadOptions,
): Promise<LoadSummary> {
  const started = Date.now();
  const requestsBefore = embedder.requests;
  const counts = await countDataset(options.dataset);
  const unlock = await lockTable(store.client, "load");
  try {
    await store.setup();
    const previousRows = await store.count();
    const table = options.append ? sql.mainTable : sql.stagingTable;
    const run: Run = {
      store,
      table,
      nextId: options.append ? ((await store.maxNumericId()) ?? firstDocId - 1n) + 1n : firstDocId,
      stored: 0,
      alreadyStored: 0,
      embeddingFailures: 0,
      skipped: [],
    };
    if (!options.append) await createStaging(store);
    // Stops the requests still in flight when the load ends early, whatever the reason.
    const stop = new AbortController();
    const forward = () => stop.abort();
    options.signal?.addEventListener("abort", forward, { once: true });
    try {
      await pump(run, embedder, options, counts.rows, stop.signal);
    } catch (error) {
      stop.abort();
      if (!options.append) await dropStaging(store).catch(() => {});
      const interrupted = error instanceof Interrupted || options.signal?.aborted === true;
      const state = await tableState(store, options, run);
      throw new LoadAbortedError(messageOf(error), state, interrupted, { cause: error });
    } finally {
      options.signal?.removeEventListener("abort", forward);
    }
    let mode: LoadSummary["mode"] = "appended";
    if (!options.append) {
      // Nothing new to show for the run: keep the previous rows rather than an empty table.
      const keepOld = run.stored === 0;
      if (keepOld) await dropStaging(store);
      else await swapStaging(store, options.log ?? (() => {}));
      mode = keepOld ? "unchanged" : "replaced";
    }
    return {
      dataset: options.dataset,
      store: store.client.location,
      mode,
      previousRows,
      dataRows: counts.rows + counts.malformed,
      stored: run.stored,
      alreadyStored: run.alreadyStored,
      skipped: run.skipped.sort((a, b) => a.line - b.line),
      embeddingFailures: run.embeddingFailures,
      firstId: run.firstId,
      lastId: run.lastId,
      embedRequests: embedder.requests - requestsBefore,
      elapsedMs: Date.now() - started,
    };
  } finally {
    await unlock().catch(() => {});
  }
}
