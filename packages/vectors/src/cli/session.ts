/** Builds the store and the embedder a command works with, from the validated configuration. */
import type { VectorsConfig } from "../config.js";
import { connect } from "../db/connect.js";
import { Embedder } from "../loader/embedder.js";
import { VectorStore } from "../store/vector-store.js";
import type { CliIo } from "./io.js";

/**
 * Opens the configured database and wraps it in a store of dimension EMBED_DIM. The server's
 * notices (e.g. pgvector's about memory during an index build) go to stderr.
 */
export async function openStore(config: VectorsConfig, io?: CliIo): Promise<VectorStore> {
  // "… already exists, skipping" is what every IF [NOT] EXISTS says: not worth a line.
  const onNotice = io
    ? (message: string) => {
        if (!message.endsWith(", skipping")) io.stderr.write(`notice: ${message}\n`);
      }
    : undefined;
  const client = await connect(config, onNotice);
  return new VectorStore(client, config.embedDim, {
    efSearch: config.efSearch,
    maintenanceWorkMem: config.maintenanceWorkMem,
  });
}

/** The embeddings client for EMBED_BASE_URL / EMBED_MODEL / EMBED_API_KEY. */
export function createEmbedder(config: VectorsConfig): Embedder {
  return new Embedder({
    baseUrl: config.embedBaseUrl,
    model: config.embedModel,
    apiKey: config.embedApiKey,
    timeoutMs: config.timeoutMs,
    retries: config.retries,
    retryBaseMs: config.retryBaseMs,
  });
}
