/** Builds the store and the embedder a command works with, from the validated configuration. */
import type { CliIo } from "@quintet/kit";
import type { VectorsConfig } from "../config.js";
import { createEmbedder, openVectorStore } from "../open-store.js";
import type { VectorStore } from "../store/vector-store.js";

export { createEmbedder };

/**
 * Opens the configured database and wraps it in a store of dimension EMBED_DIM, and says on
 * stderr which database that is. The server's notices (e.g. pgvector's about memory during
 * an index build) go to stderr too. `create: false` (query, index, cleanup) reports a missing
 * embedded database instead of creating an empty one.
 */
export async function openStore(
  config: VectorsConfig,
  io: CliIo,
  options: { create?: boolean } = {},
): Promise<VectorStore> {
  // "… already exists, skipping" is what every IF [NOT] EXISTS says: not worth a line.
  const onNotice = (message: string) => {
    if (!message.endsWith(", skipping")) io.stderr.write(`notice: ${message}\n`);
  };
  const store = await openVectorStore(config, { onNotice, create: options.create });
  io.stderr.write(`store: ${store.client.location}\n`);
  return store;
}
