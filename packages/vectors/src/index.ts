/**
 * The vector store as a library: configuration, the store (connect, setup, add, query,
 * cleanup), the embeddings client and the loader, with their types. The `vectors` CLI is
 * built on the same exports.
 */
export { commands, runCli } from "./cli/main.js";
export * from "./config.js";
export * from "./db/connect.js";
export * from "./db/data-dir-lock.js";
export * from "./db/pg-client.js";
export * from "./db/pglite-client.js";
export * from "./db/session-timeouts.js";
export * from "./db/sql-client.js";
export * from "./errors.js";
export * from "./loader/dataset.js";
export * from "./loader/embed-batch.js";
export * from "./loader/embedder.js";
export * from "./loader/load.js";
export * from "./loader/text-lines.js";
export * from "./open-store.js";
export * from "./store/load-lock.js";
export {
  type Distance,
  distances,
  indexedExpression,
  indexName,
  indexNameFor,
} from "./store/sql.js";
export * from "./store/table-swap.js";
export * from "./store/vector-store.js";
