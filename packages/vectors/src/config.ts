/**
 * The only reader of the environment for the vector store. Every variable is validated once;
 * all problems are reported together and each names its variable.
 */
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { readWholeNumber } from "@quintet/kit";
import { ConfigError } from "./errors.js";

/** Validated, frozen settings of the vector store, its loader and its CLI. */
export interface VectorsConfig {
  /** `postgres://` URL of a PostgreSQL with pgvector; undefined means embedded PGlite. */
  readonly databaseUrl?: string;
  /**
   * Absolute directory of the embedded PGlite database (`memory://` keeps it in memory). By
   * default one per user (see {@link defaultDataDir}), so every command finds the same store
   * whatever folder it runs in.
   */
  readonly dataDir: string;
  /** Embedding dimension D of `doc_embedding vector(D)`. */
  readonly embedDim: number;
  /** OpenAI-compatible base URL of the embeddings endpoint, ending with `/v1`. */
  readonly embedBaseUrl: string;
  readonly embedModel: string;
  readonly embedApiKey: string;
  /** Dataset loaded by `vectors load` when no `--dataset` is given. */
  readonly dataset: string;
  /** Summaries sent per embeddings request (array input). */
  readonly batchSize: number;
  /** Embeddings requests in flight at once. */
  readonly concurrency: number;
  /** Time one embeddings request may take before it is abandoned (and retried). */
  readonly timeoutMs: number;
  /** Retries of one request after a 429, a 5xx, a timeout or a refused connection. */
  readonly retries: number;
  /** First backoff delay; it doubles per retry (with jitter). */
  readonly retryBaseMs: number;
  /** `hnsw.ef_search` used by queries once an index exists. */
  readonly efSearch: number;
  /**
   * Longest wait for the database to accept a session, in ms (0: no limit). The URL's
   * `connect_timeout` (seconds) wins over PG_CONNECT_TIMEOUT.
   */
  readonly connectTimeoutMs: number;
  /**
   * Longest wait for a table lock another session holds, in ms (PostgreSQL's `lock_timeout`;
   * 0: no limit). A statement that waits longer fails, naming PG_LOCK_TIMEOUT.
   */
  readonly lockTimeoutMs: number;
  /** Longest run of one statement, in ms (`statement_timeout`; 0: no limit). */
  readonly statementTimeoutMs: number;
  /** Embeddings batches failing in a row after which a load stops. */
  readonly maxFailedBatches: number;
  /** `maintenance_work_mem` for HNSW builds (PostgreSQL memory text such as "1GB"). */
  readonly maintenanceWorkMem: string;
}

/** The sample dataset shipped with the package (`data/books.txt`). */
export const sampleDataset = fileURLToPath(new URL("../../data/books.txt", import.meta.url));

/**
 * The embedded database's default directory: `$XDG_DATA_HOME/quintet/vectors` (an absolute
 * XDG_DATA_HOME, as the XDG spec requires), else `~/.local/share/quintet/vectors`
 * (`%LOCALAPPDATA%\quintet\vectors` on Windows). It depends on the user, never on the folder
 * a command runs in: `npm start` at the repository root and `npx vectors query` in
 * packages/vectors must find one store.
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_DATA_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, "quintet", "vectors");
  if (process.platform === "win32" && env.LOCALAPPDATA) {
    return join(env.LOCALAPPDATA, "quintet", "vectors");
  }
  return join(env.HOME || homedir(), ".local", "share", "quintet", "vectors");
}

/** VECTORS_DATA_DIR made absolute (against the current folder), or the default. */
function readDataDir(env: NodeJS.ProcessEnv, bad: string[]): string {
  const text = env.VECTORS_DATA_DIR;
  if (text === undefined || text === "") return defaultDataDir(env);
  if (text.trim() === "") {
    bad.push("VECTORS_DATA_DIR must not be blank");
    return text;
  }
  if (text.startsWith("memory://")) return text;
  if (text.includes("\0")) {
    bad.push("VECTORS_DATA_DIR must not contain a NUL character");
    return text;
  }
  return resolve(text);
}

/** Name, meaning and default of every variable, for `--help` and the README. */
export const configTable = [
  [
    "PG_VECTOR_DB",
    "postgres://user:password@host:5432/db of a PostgreSQL with pgvector",
    "(embedded PGlite)",
  ],
  [
    "VECTORS_DATA_DIR",
    "data directory of the embedded PGlite database (`memory://` = in memory; relative = to the current folder)",
    "$XDG_DATA_HOME/quintet/vectors, else ~/.local/share/quintet/vectors",
  ],
  [
    "EMBED_BASE_URL",
    "OpenAI-compatible embeddings base URL; must end with /v1",
    "http://127.0.0.1:11434/v1",
  ],
  ["EMBED_MODEL", "embedding model name sent with each request", "demo:latest"],
  [
    "EMBED_API_KEY",
    "API key sent as a bearer token (a dummy value for the local server)",
    "quintet",
  ],
  ["EMBED_DIM", "embedding dimension D of doc_embedding vector(D)", "2048"],
  [
    "DOCS_DATASET",
    "|-delimited dataset (header row; title|author|summary)",
    "data/books.txt of this package",
  ],
  ["EMBED_BATCH_SIZE", "summaries per embeddings request (array input)", "32"],
  ["EMBED_CONCURRENCY", "embeddings requests in flight at once", "2"],
  ["EMBED_TIMEOUT_MS", "time limit of one embeddings request", "60000"],
  ["EMBED_RETRIES", "retries after 429, 5xx, timeout or refused connection", "3"],
  ["EMBED_RETRY_BASE_MS", "first retry delay, doubled per retry (Retry-After wins)", "500"],
  ["VECTORS_EF_SEARCH", "hnsw.ef_search for queries once an index exists", "100"],
  [
    "PG_CONNECT_TIMEOUT",
    "seconds to wait for the database to accept a session (0 = no limit; connect_timeout in the URL wins)",
    "10",
  ],
  [
    "PG_LOCK_TIMEOUT",
    "seconds a statement waits for a table lock another session holds (0 = no limit)",
    "30",
  ],
  [
    "PG_STATEMENT_TIMEOUT",
    "seconds one statement may run, index builds included (0 = no limit)",
    "0",
  ],
  [
    "EMBED_MAX_FAILED_BATCHES",
    "embeddings batches failing in a row (after their retries) that stop a load",
    "3",
  ],
  [
    "VECTORS_MAINTENANCE_WORK_MEM",
    "maintenance_work_mem for HNSW index builds (1MB-16GB, units kB/MB/GB)",
    "1GB",
  ],
] as const;

/** Reads `connect_timeout` (whole seconds) from a postgres URL's query, if there. */
function urlConnectTimeout(text: string | undefined, bad: string[]): number | undefined {
  if (!text) return undefined;
  let value: string | null = null;
  try {
    value = new URL(text).searchParams.get("connect_timeout");
  } catch {
    return undefined;
  }
  if (value === null) return undefined;
  if (!/^\d{1,7}$/.test(value)) {
    bad.push(`PG_VECTOR_DB: connect_timeout must be whole seconds, got "${value}"`);
    return undefined;
  }
  return Number(value);
}

const memoryUnits: Record<string, number> = { kB: 1 / 1024, MB: 1, GB: 1024 };

/** A PostgreSQL memory setting from 1MB to 16GB, as text the server accepts. */
function readMemory(env: NodeJS.ProcessEnv, name: string, fallback: string, bad: string[]) {
  const text = env[name];
  if (text === undefined || text === "") return fallback;
  const match = /^(\d{1,9})\s*(kB|MB|GB)$/.exec(text.trim());
  const mb = match ? Number(match[1]) * (memoryUnits[match[2] as string] as number) : Number.NaN;
  if (!match || !(mb >= 1 && mb <= 16384)) {
    bad.push(`${name} must be a size from 1MB to 16GB such as "512MB" or "2GB", got "${text}"`);
    return fallback;
  }
  return `${match[1]}${match[2]}`;
}

function readDatabaseUrl(env: NodeJS.ProcessEnv, bad: string[]): string | undefined {
  const text = env.PG_VECTOR_DB;
  if (text === undefined || text === "") return undefined;
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== "postgres:" && url.protocol !== "postgresql:") || !url.hostname) {
    bad.push(
      "PG_VECTOR_DB must be a postgres://<user>:<password>@<host>:5432/<db> URL " +
        "(leave it unset for the embedded database)",
    );
    return undefined;
  }
  return text;
}

function readBaseUrl(env: NodeJS.ProcessEnv, bad: string[]): string {
  const text = env.EMBED_BASE_URL || "http://127.0.0.1:11434/v1";
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  const path = url?.pathname.replace(/\/$/, "") ?? "";
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || !path.endsWith("/v1")) {
    bad.push(`EMBED_BASE_URL must be an http(s) URL ending with /v1, got "${text}"`);
  }
  return text.replace(/\/$/, "");
}

function readText(env: NodeJS.ProcessEnv, name: string, fallback: string, bad: string[]): string {
  const text = env[name];
  if (text === undefined) return fallback;
  if (text.trim() === "") bad.push(`${name} must not be blank`);
  return text;
}

/**
 * Validates the environment once and returns frozen settings.
 * @throws ConfigError listing every bad variable.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): VectorsConfig {
  const bad: string[] = [];
  const connectTimeout = readWholeNumber(env, "PG_CONNECT_TIMEOUT", 10, [0, 3600], bad);
  const config: VectorsConfig = {
    databaseUrl: readDatabaseUrl(env, bad),
    dataDir: readDataDir(env, bad),
    embedDim: readWholeNumber(env, "EMBED_DIM", 2048, [1, 16000], bad),
    embedBaseUrl: readBaseUrl(env, bad),
    embedModel: readText(env, "EMBED_MODEL", "demo:latest", bad),
    embedApiKey: readText(env, "EMBED_API_KEY", "quintet", bad),
    dataset: readText(env, "DOCS_DATASET", sampleDataset, bad),
    batchSize: readWholeNumber(env, "EMBED_BATCH_SIZE", 32, [1, 2048], bad),
    concurrency: readWholeNumber(env, "EMBED_CONCURRENCY", 2, [1, 64], bad),
    timeoutMs: readWholeNumber(env, "EMBED_TIMEOUT_MS", 60000, [1, 3600000], bad),
    retries: readWholeNumber(env, "EMBED_RETRIES", 3, [0, 20], bad),
    retryBaseMs: readWholeNumber(env, "EMBED_RETRY_BASE_MS", 500, [0, 600000], bad),
    efSearch: readWholeNumber(env, "VECTORS_EF_SEARCH", 100, [1, 1000], bad),
    connectTimeoutMs: (urlConnectTimeout(env.PG_VECTOR_DB, bad) ?? connectTimeout) * 1000,
    lockTimeoutMs: readWholeNumber(env, "PG_LOCK_TIMEOUT", 30, [0, 86400], bad) * 1000,
    statementTimeoutMs: readWholeNumber(env, "PG_STATEMENT_TIMEOUT", 0, [0, 86400], bad) * 1000,
    maxFailedBatches: readWholeNumber(env, "EMBED_MAX_FAILED_BATCHES", 3, [1, 100000], bad),
    maintenanceWorkMem: readMemory(env, "VECTORS_MAINTENANCE_WORK_MEM", "1GB", bad),
  };
  if (bad.length > 0) throw new ConfigError(bad);
  return Object.freeze(config);
}
