/**
 * Embeds one batch of the loader and classifies the outcome, so the loader can decide: store
 * the rows, skip them, count an endpoint failure, or stop at once because every later request
 * would fail the same way (wrong key, unknown model).
 */
import { EmbeddingError, messageOf } from "../errors.js";
import type { DatasetRow } from "./dataset.js";
import type { Embedder } from "./embedder.js";

/** The outcome for one row of a batch: its embedding, or why there is none. */
export interface RowResult {
  readonly embedding?: number[];
  readonly error?: string;
}

/** What became of a batch. */
export interface BatchOutcome {
  readonly results: readonly RowResult[];
  /** The request failed as a whole (after its retries): the endpoint is down or overloaded. */
  readonly failed?: string;
  /** The endpoint refused in a way no other row can escape (401, 403, 404): stop the load. */
  readonly fatal?: EmbeddingError;
}

/** Statuses that say the key or the model is wrong: the same answer for every row. */
const fatalStatuses = new Set([401, 403, 404]);

function statusOf(error: unknown): number | undefined {
  return error instanceof EmbeddingError ? error.status : undefined;
}

/** Explains a fatal refusal with the variable to fix. */
function fatalError(error: EmbeddingError): EmbeddingError {
  const status = error.status as number;
  const hint =
    status === 404
      ? "the endpoint does not know the model (or the URL); check EMBED_MODEL and EMBED_BASE_URL"
      : "the endpoint refused the key; check EMBED_API_KEY";
  return new EmbeddingError(`${error.message}: ${hint}`, status, { cause: error });
}

function isClientError(status: number | undefined): boolean {
  return status !== undefined && status >= 400 && status < 500 && status !== 429;
}

/**
 * Embeds `rows` in one request; never rejects. A client error (4xx) on a batch may come from
 * one bad row, so the batch is then asked row by row (the batch already holds its concurrency
 * slot) and the other rows are saved.
 */
export async function embedBatch(
  embedder: Embedder,
  rows: readonly DatasetRow[],
  signal?: AbortSignal,
): Promise<BatchOutcome> {
  // A signal of the batch's own, linked to the load's: the HTTP client leaves a listener on
  // every signal it is given, which on the load's one signal would grow with the dataset.
  const own = new AbortController();
  const forward = () => own.abort();
  if (signal?.aborted) own.abort();
  signal?.addEventListener("abort", forward, { once: true });
  try {
    return await embedRows(embedder, rows, own.signal);
  } finally {
    signal?.removeEventListener("abort", forward);
  }
}

async function embedRows(
  embedder: Embedder,
  rows: readonly DatasetRow[],
  signal: AbortSignal,
): Promise<BatchOutcome> {
  try {
    const embeddings = await embedder.embed(
      rows.map((row) => row.summary),
      signal,
    );
    return { results: embeddings.map((embedding) => (embedding ? { embedding } : {})) };
  } catch (error) {
    const status = statusOf(error);
    if (status !== undefined && fatalStatuses.has(status)) {
      return { results: [], fatal: fatalError(error as EmbeddingError) };
    }
    if (rows.length > 1 && isClientError(status)) {
      const results: RowResult[] = [];
      for (const row of rows) {
        const one = await embedRows(embedder, [row], signal);
        if (one.fatal) return one;
        results.push(...one.results);
      }
      return { results };
    }
    const reason = messageOf(error);
    // A 4xx of a single row is that row's problem; anything else is the endpoint's.
    return {
      results: rows.map(() => ({ error: reason })),
      failed: isClientError(status) ? undefined : reason,
    };
  }
}
