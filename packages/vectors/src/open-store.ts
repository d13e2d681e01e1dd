/**
 * The library's front door: a {@link VectorStore} on the configured database, and the
 * embeddings client for the configured endpoint. The CLI opens its store through these too.
 */
import { loadConfig, type VectorsConfig } from "./config.js";
import { connect } from "./db/connect.js";
import type { NoticeListener } from "./db/sql-client.js";
import { Embedder } from "./loader/embedder.js";
import { VectorStore } from "./store/vector-store.js";

export interface OpenStoreOptions {
  /** Hears the server's notices (e.g. pgvector's about memory during an index build). */
  readonly onNotice?: NoticeListener;
  /**
   * Whether a missing embedded database is created (default true); with false a missing one
   * is a `TableMissingError` naming the directory.
   */
  readonly create?: boolean;
}

/**
 * Connects to PG_VECTOR_DB, or else the embedded database in VECTORS_DATA_DIR, and returns the
 * store of dimension EMBED_DIM on that session. `store.client.location` says which database
 * it is. Close it with `store.close()` (or `store.cleanup()`, which drops the table first).
 * @param config validated settings; by default {@link loadConfig} of `process.env`.
 * @throws ConfigError (from the default) naming every bad variable; DatabaseError when the
 *   database cannot be reached (the message names the URL or the directory).
 */
export async function openVectorStore(
  config: VectorsConfig = loadConfig(),
  options: OpenStoreOptions = {},
): Promise<VectorStore> {
  const client = await connect(config, options);
  return new VectorStore(client, config.embedDim, {
    efSearch: config.efSearch,
    maintenanceWorkMem: config.maintenanceWorkMem,
  });
}

/** The embeddings client for EMBED_BASE_URL / EMBED_MODEL / EMBED_API_KEY and their limits. */
export function createEmbedder(config: VectorsConfig = loadConfig()): Embedder {
  return new Embedder({
    baseUrl: config.embedBaseUrl,
    model: config.embedModel,
    apiKey: config.embedApiKey,
    timeoutMs: config.timeoutMs,
    retries: config.retries,
    retryBaseMs: config.retryBaseMs,
  });
}
