// The server's configuration: every LLMSRV_* variable read once, validated together, frozen.
import { readFileSync } from "node:fs";
import { availableParallelism, homedir } from "node:os";
import { join } from "node:path";
import { type LogFormat, readLogFormat } from "@quintet/kit";
import { parseKeepAliveEnv } from "./duration.js";
import { ConfigError } from "./errors.js";
import { defaultOrigins, originEntryProblem } from "./origin-patterns.js";
import { loadTemplateIndex } from "./template-index.js";

/** KV cache element types the server accepts. */
export type KvCacheType = "f16" | "q8_0" | "q4_0";

/** The server's validated, frozen configuration. */
export interface LlmsrvConfig {
  readonly host: string;
  readonly port: number;
  readonly modelsDir: string;
  /** Keep-alive in ms; `Infinity` = forever, 0 = unload when idle. */
  readonly keepAliveMs: number;
  readonly maxLoadedModels: number;
  readonly numParallel: number;
  readonly maxQueue: number;
  readonly contextLength: number;
  readonly flashAttention: boolean;
  readonly kvCacheType: KvCacheType;
  readonly numThread: number;
  readonly physicalCores: number;
  readonly apiKey: string | undefined;
  readonly logLevel: string;
  /** Log lines as JSON or text; undefined: text on a terminal. */
  readonly logFormat?: LogFormat;
  /** Most inputs one embedding request may carry. */
  readonly maxEmbedInputs: number;
  /** Largest JSON request body in bytes (blob uploads stream to disk and are not bounded). */
  readonly maxBodyBytes: number;
  /** Folder of Ollama's templates (`index.json`, `<name>.gotmpl`) for create's template detection. */
  readonly templatesDir: string | undefined;
  /** Origins browsers may call from: Ollama's localhost defaults plus `LLMSRV_ORIGINS`. */
  readonly origins: readonly string[];
  /** Base URL used for models named on the default registry (a mirror); undefined = https://registry.ollama.ai. */
  readonly registryUrl: string | undefined;
  /** Bearer token sent to registries on pull and push. */
  readonly registryToken: string | undefined;
  /** Keep unreferenced blobs: no prune at start-up, replaced layers stay (LLMSRV_NOPRUNE). */
  readonly noPrune: boolean;
  /** Largest `num_ctx` a request or model parameter may ask for. */
  readonly maxNumCtx: number;
  /** Largest `num_batch` a request or model parameter may ask for. */
  readonly maxNumBatch: number;
  /** Largest `num_predict`; an unbounded request (-1) generates at most this many tokens. */
  readonly maxNumPredict: number;
  /** Most bytes one loaded model may need (weights, KV cache, compute); undefined = no cap. */
  readonly maxModelMemory: number | undefined;
}

/**
 * Number of physical CPU cores: distinct (physical id, core id) pairs of /proc/cpuinfo,
 * falling back to the logical count where that file is absent.
 */
export function physicalCoreCount(): number {
  try {
    const text = readFileSync("/proc/cpuinfo", "utf8");
    const cores = new Set<string>();
    for (const block of text.split(/\n\s*\n/)) {
      const phys = /physical id\s*:\s*(\d+)/.exec(block)?.[1];
      const core = /core id\s*:\s*(\d+)/.exec(block)?.[1];
      if (phys !== undefined && core !== undefined) cores.add(`${phys}:${core}`);
    }
    if (cores.size > 0) return Math.min(cores.size, availableParallelism());
  } catch {
    // not Linux: fall through
  }
  return availableParallelism();
}

/** Parses `[http://]host[:port]`, `:port` or `host`. */
export function parseHostAddress(text: string): { host: string; port: number } | undefined {
  let s = text
    .trim()
    .replace(/^http:\/\//, "")
    .replace(/\/+$/, "");
  if (s === "") return undefined;
  if (s.startsWith(":")) s = `127.0.0.1${s}`;
  const m = /^(\[[^\]]+\]|[^:/]+)(?::(\d+))?$/.exec(s);
  if (!m?.[1]) return undefined;
  const port = m[2] === undefined ? 11434 : Number(m[2]);
  if (!Number.isInteger(port) || port < 0 || port > 65535) return undefined;
  return { host: m[1].replace(/^\[|\]$/g, ""), port };
}

type Env = Readonly<Record<string, string | undefined>>;

function intVar(env: Env, name: string, fallback: number, min: number, bad: string[]): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) {
    bad.push(`${name}: expected an integer >= ${min}, got "${raw}"`);
    return fallback;
  }
  return n;
}

function boolVar(env: Env, name: string, bad: string[]): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === "") return false;
  if (["1", "true", "t", "yes", "on"].includes(raw)) return true;
  if (["0", "false", "f", "no", "off"].includes(raw)) return false;
  bad.push(`${name}: expected 1/0 or true/false, got "${raw}"`);
  return false;
}

function readHost(env: Env, bad: string[]): { host: string; port: number } {
  const raw = env.LLMSRV_HOST;
  if (raw === undefined || raw.trim() === "") return { host: "127.0.0.1", port: 11434 };
  const addr = parseHostAddress(raw);
  if (!addr) bad.push(`LLMSRV_HOST: expected host[:port], got "${raw}"`);
  return addr ?? { host: "127.0.0.1", port: 11434 };
}

function readKeepAlive(env: Env, bad: string[]): number {
  const raw = env.LLMSRV_KEEP_ALIVE;
  if (raw === undefined || raw.trim() === "") return 5 * 60_000;
  const ms = parseKeepAliveEnv(raw);
  if (ms === undefined)
    bad.push(`LLMSRV_KEEP_ALIVE: expected a duration like 5m, 1h, 30s, -1 or 0, got "${raw}"`);
  return ms ?? 5 * 60_000;
}

function readKvCacheType(env: Env, bad: string[]): KvCacheType {
  const raw = env.LLMSRV_KV_CACHE_TYPE?.trim().toLowerCase();
  if (raw === undefined || raw === "") return "f16";
  if (raw === "f16" || raw === "q8_0" || raw === "q4_0") return raw;
  bad.push(`LLMSRV_KV_CACHE_TYPE: expected f16, q8_0 or q4_0, got "${raw}"`);
  return "f16";
}

function readThreads(env: Env, cores: number, bad: string[]): number {
  const n = intVar(env, "LLMSRV_NUM_THREAD", cores, 1, bad);
  if (n > cores) {
    bad.push(`LLMSRV_NUM_THREAD: ${n} exceeds the physical core count ${cores}`);
    return cores;
  }
  return n;
}

/** A templates folder must hold a readable `index.json` of `{template, name}` entries. */
function readTemplatesDir(env: Env, bad: string[]): string | undefined {
  const raw = env.LLMSRV_TEMPLATES?.trim();
  if (!raw) return undefined;
  const dir = raw.replace(/^~(?=\/|$)/, homedir());
  try {
    loadTemplateIndex(dir);
  } catch (e) {
    bad.push(`LLMSRV_TEMPLATES: ${(e as Error).message}`);
  }
  return dir;
}

function readOrigins(env: Env, bad: string[]): string[] {
  const extra = (env.LLMSRV_ORIGINS ?? "")
    .split(",")
    .map((o) => o.trim())
    .filter((o) => o !== "");
  for (const o of extra) {
    const problem = originEntryProblem(o);
    if (problem) bad.push(`LLMSRV_ORIGINS: ${problem}`);
  }
  return [...extra, ...defaultOrigins()];
}

const SIZE_UNITS: Readonly<Record<string, number>> = {
  "": 1,
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  tb: 1e12,
  kib: 2 ** 10,
  mib: 2 ** 20,
  gib: 2 ** 30,
  tib: 2 ** 40,
};

/** Parses a byte size: `1073741824`, `8GiB`, `512 MiB`, `4GB`, `1.5gib`. */
export function parseByteSize(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(text.trim());
  const unit = m ? SIZE_UNITS[(m[2] ?? "").toLowerCase()] : undefined;
  if (!m || unit === undefined) return undefined;
  const bytes = Math.floor(Number(m[1]) * unit);
  return bytes > 0 && Number.isSafeInteger(bytes) ? bytes : undefined;
}

function readMaxModelMemory(env: Env, bad: string[]): number | undefined {
  const raw = env.LLMSRV_MAX_MODEL_MEMORY?.trim();
  if (!raw) return undefined;
  const bytes = parseByteSize(raw);
  if (bytes === undefined)
    bad.push(
      `LLMSRV_MAX_MODEL_MEMORY: expected a size in bytes > 0 such as 8GiB, 512MiB or 4000000000, got "${raw}"`,
    );
  return bytes;
}

function readRegistryUrl(env: Env, bad: string[]): string | undefined {
  const raw = env.LLMSRV_REGISTRY?.trim();
  if (!raw) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
    bad.push(`LLMSRV_REGISTRY: expected an http:// or https:// URL, got "${raw}"`);
    return undefined;
  }
  return raw.replace(/\/+$/, "");
}

/**
 * Reads and validates every LLMSRV_* variable once. Throws a ConfigError listing all
 * invalid variables together, each message naming its variable.
 */
export function loadConfig(env: Env = process.env): LlmsrvConfig {
  const bad: string[] = [];
  const cores = physicalCoreCount();
  const { host, port } = readHost(env, bad);
  const modelsRaw = env.LLMSRV_MODELS?.trim();
  const logLevel = env.LLMSRV_LOG_LEVEL?.trim() || "info";
  if (!["fatal", "error", "warn", "info", "debug", "trace", "silent"].includes(logLevel)) {
    bad.push(`LLMSRV_LOG_LEVEL: unknown level "${logLevel}"`);
  }
  const logFormat = readLogFormat(env, bad);
  const config: LlmsrvConfig = {
    host,
    port,
    modelsDir: modelsRaw
      ? modelsRaw.replace(/^~(?=\/|$)/, homedir())
      : join(homedir(), ".llmsrv", "models"),
    keepAliveMs: readKeepAlive(env, bad),
    maxLoadedModels: intVar(env, "LLMSRV_MAX_LOADED_MODELS", 1, 1, bad),
    numParallel: intVar(env, "LLMSRV_NUM_PARALLEL", 1, 1, bad),
    maxQueue: intVar(env, "LLMSRV_MAX_QUEUE", 512, 0, bad),
    contextLength: intVar(env, "LLMSRV_CONTEXT_LENGTH", 2048, 16, bad),
    flashAttention: boolVar(env, "LLMSRV_FLASH_ATTENTION", bad),
    kvCacheType: readKvCacheType(env, bad),
    numThread: readThreads(env, cores, bad),
    physicalCores: cores,
    apiKey: env.LLMSRV_API_KEY?.trim() || undefined,
    logLevel,
    ...(logFormat && { logFormat }),
    maxEmbedInputs: intVar(env, "LLMSRV_MAX_EMBED_INPUTS", 2048, 1, bad),
    maxBodyBytes: intVar(env, "LLMSRV_MAX_BODY_BYTES", 32 * 1024 * 1024, 1, bad),
    templatesDir: readTemplatesDir(env, bad),
    origins: readOrigins(env, bad),
    registryUrl: readRegistryUrl(env, bad),
    registryToken: env.LLMSRV_REGISTRY_TOKEN?.trim() || undefined,
    noPrune: boolVar(env, "LLMSRV_NOPRUNE", bad),
    maxNumCtx: intVar(env, "LLMSRV_MAX_NUM_CTX", 131072, 16, bad),
    maxNumBatch: intVar(env, "LLMSRV_MAX_NUM_BATCH", 2048, 1, bad),
    maxNumPredict: intVar(env, "LLMSRV_MAX_NUM_PREDICT", 32768, 1, bad),
    maxModelMemory: readMaxModelMemory(env, bad),
  };
  if (config.contextLength > config.maxNumCtx) {
    bad.push(
      `LLMSRV_CONTEXT_LENGTH: ${config.contextLength} exceeds LLMSRV_MAX_NUM_CTX ${config.maxNumCtx}`,
    );
  }
  if (config.kvCacheType !== "f16" && !config.flashAttention) {
    bad.push(
      `LLMSRV_KV_CACHE_TYPE: ${config.kvCacheType} needs LLMSRV_FLASH_ATTENTION=1 (llama.cpp quantizes the KV cache only with flash attention)`,
    );
  }
  if (bad.length > 0) throw new ConfigError(bad);
  return Object.freeze(config);
}
