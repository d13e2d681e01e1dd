// The server's configuration: every LLMSRV_* variable read once, validated together, frozen.
import { readFileSync } from "node:fs";
import { availableParallelism, homedir } from "node:os";
import { join } from "node:path";
import { type LogFormat, readLogFormat } from "@quintet/kit";
import { ConfigEnv, type Env, logLevelFromOllamaDebug } from "./config-env.js";
import { parseKeepAliveEnv } from "./duration.js";
import { ConfigError } from "./errors.js";
import { clientBaseUrl, DEFAULT_PORT, type HostAddress, parseHostAddress } from "./host-address.js";
import { defaultOrigins, originEntryProblem } from "./origin-patterns.js";
import { loadTemplateIndex } from "./template-index.js";

/** What LLMSRV_GPU asks for: the best available, one GPU API, or the CPU alone. */
export type GpuMode = "auto" | "cuda" | "vulkan" | "off";

/** The accepted LLMSRV_GPU values, in the order messages list them. */
export const GPU_MODES: readonly GpuMode[] = Object.freeze(["auto", "cuda", "vulkan", "off"]);

/** KV cache element types the server accepts. */
export type KvCacheType = "f16" | "q8_0" | "q4_0";

/** The server's validated, frozen configuration. */
export interface LlmsrvConfig {
  readonly host: string;
  readonly port: number;
  readonly modelsDir: string;
  /** Keep-alive in ms; `Infinity` = forever, 0 = unload when idle. */
  readonly keepAliveMs: number;
  /** LLMSRV_MAX_LOADED_MODELS; undefined: 1 on the CPU, 3 with a GPU (the scheduler decides). */
  readonly maxLoadedModels: number | undefined;
  /** LLMSRV_GPU: which node-llama-cpp variant runners load (`auto`: the best that runs). */
  readonly gpu: GpuMode;
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
  /** Log one line per HTTP request (method, path, status, duration, bytes): LLMSRV_ACCESS_LOG. */
  readonly accessLog: boolean;
  /** One line per OLLAMA_* variable read in place of an unset LLMSRV_* one, for the log. */
  readonly envNotices: readonly string[];
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

function intVar(env: ConfigEnv, key: string, fallback: number, min: number, bad: string[]): number {
  const { name, raw: text } = env.read(key);
  const raw = text?.trim();
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) {
    bad.push(`${name}: expected an integer >= ${min}, got "${raw}"`);
    return fallback;
  }
  return n;
}

/** An integer variable whose absence leaves the choice to the code that uses it. */
function optionalIntVar(
  env: ConfigEnv,
  key: string,
  min: number,
  bad: string[],
): number | undefined {
  const n = intVar(env, key, Number.NaN, min, bad);
  return Number.isNaN(n) ? undefined : n;
}

function boolVar(env: ConfigEnv, key: string, bad: string[]): boolean {
  const { name, raw: text } = env.read(key);
  const raw = text?.trim().toLowerCase();
  if (raw === undefined || raw === "") return false;
  if (["1", "true", "t", "yes", "on"].includes(raw)) return true;
  if (["0", "false", "f", "no", "off"].includes(raw)) return false;
  bad.push(`${name}: expected 1/0 or true/false, got "${raw}"`);
  return false;
}

const DEFAULT_ADDRESS: HostAddress = {
  scheme: "http",
  host: "127.0.0.1",
  port: DEFAULT_PORT,
  path: "",
};

function readHost(env: ConfigEnv, bad: string[]): HostAddress {
  const { name, raw } = env.read("LLMSRV_HOST");
  if (raw === undefined || raw.trim() === "") return DEFAULT_ADDRESS;
  const addr = parseHostAddress(raw);
  if (!addr)
    bad.push(
      `${name}: expected [http[s]://]host[:port][/path] with a port of 0-65535, got "${raw}"`,
    );
  return addr ?? DEFAULT_ADDRESS;
}

function readKeepAlive(env: ConfigEnv, bad: string[]): number {
  const { name, raw } = env.read("LLMSRV_KEEP_ALIVE");
  if (raw === undefined || raw.trim() === "") return 5 * 60_000;
  const ms = parseKeepAliveEnv(raw);
  if (ms === undefined)
    bad.push(`${name}: expected a duration like 5m, 1h, 30s, -1 or 0, got "${raw}"`);
  return ms ?? 5 * 60_000;
}

function readGpu(env: ConfigEnv, bad: string[]): GpuMode {
  const { name, raw: text } = env.read("LLMSRV_GPU");
  const raw = text?.trim().toLowerCase();
  if (raw === undefined || raw === "") return "auto";
  const mode = GPU_MODES.find((m) => m === raw);
  if (!mode) bad.push(`${name}: expected ${GPU_MODES.join(", ")}, got "${raw}"`);
  return mode ?? "auto";
}

function readKvCacheType(env: ConfigEnv, bad: string[]): KvCacheType {
  const { name, raw: text } = env.read("LLMSRV_KV_CACHE_TYPE");
  const raw = text?.trim().toLowerCase();
  if (raw === undefined || raw === "") return "f16";
  if (raw === "f16" || raw === "q8_0" || raw === "q4_0") return raw;
  bad.push(`${name}: expected f16, q8_0 or q4_0, got "${raw}"`);
  return "f16";
}

function readThreads(env: ConfigEnv, cores: number, bad: string[]): number {
  const n = intVar(env, "LLMSRV_NUM_THREAD", cores, 1, bad);
  if (n > cores) {
    bad.push(`LLMSRV_NUM_THREAD: ${n} exceeds the physical core count ${cores}`);
    return cores;
  }
  return n;
}

/** A templates folder must hold a readable `index.json` of `{template, name}` entries. */
function readTemplatesDir(env: ConfigEnv, bad: string[]): string | undefined {
  const raw = env.read("LLMSRV_TEMPLATES").raw?.trim();
  if (!raw) return undefined;
  const dir = raw.replace(/^~(?=\/|$)/, homedir());
  try {
    loadTemplateIndex(dir);
  } catch (e) {
    bad.push(`LLMSRV_TEMPLATES: ${(e as Error).message}`);
  }
  return dir;
}

function readOrigins(env: ConfigEnv, bad: string[]): string[] {
  const { name, raw } = env.read("LLMSRV_ORIGINS");
  const extra = (raw ?? "")
    .split(",")
    .map((o) => o.trim())
    .filter((o) => o !== "");
  for (const o of extra) {
    const problem = originEntryProblem(o);
    if (problem) bad.push(`${name}: ${problem}`);
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

function readMaxModelMemory(env: ConfigEnv, bad: string[]): number | undefined {
  const raw = env.read("LLMSRV_MAX_MODEL_MEMORY").raw?.trim();
  if (!raw) return undefined;
  const bytes = parseByteSize(raw);
  if (bytes === undefined)
    bad.push(
      `LLMSRV_MAX_MODEL_MEMORY: expected a size in bytes > 0 such as 8GiB, 512MiB or 4000000000, got "${raw}"`,
    );
  return bytes;
}

function readRegistryUrl(env: ConfigEnv, bad: string[]): string | undefined {
  const raw = env.read("LLMSRV_REGISTRY").raw?.trim();
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

function readLogLevel(env: ConfigEnv, bad: string[]): string {
  const { name, raw } = env.read("LLMSRV_LOG_LEVEL");
  const text = raw?.trim() ?? "";
  const level = name === "OLLAMA_DEBUG" ? logLevelFromOllamaDebug(text) : text || "info";
  if (level === undefined)
    bad.push(`${name}: expected 1/true (debug), 2 (trace) or 0/false, got "${text}"`);
  else if (!LOG_LEVELS.includes(level)) bad.push(`${name}: unknown level "${level}"`);
  return level ?? "info";
}

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

/**
 * Reads and validates every LLMSRV_* variable once, each unset one from its OLLAMA_*
 * counterpart when that is set (`envNotices` says which). Throws a ConfigError listing all
 * invalid variables together, each message naming the variable it read.
 */
export function loadConfig(envRecord: Env = process.env): LlmsrvConfig {
  const bad: string[] = [];
  const env = new ConfigEnv(envRecord);
  const cores = physicalCoreCount();
  const address = readHost(env, bad);
  const modelsRaw = env.read("LLMSRV_MODELS").raw?.trim();
  const logLevel = readLogLevel(env, bad);
  const logFormat = readLogFormat(envRecord, bad);
  const config: LlmsrvConfig = {
    host: address.host,
    port: address.port,
    modelsDir: modelsRaw
      ? modelsRaw.replace(/^~(?=\/|$)/, homedir())
      : join(homedir(), ".llmsrv", "models"),
    keepAliveMs: readKeepAlive(env, bad),
    maxLoadedModels: optionalIntVar(env, "LLMSRV_MAX_LOADED_MODELS", 1, bad),
    gpu: readGpu(env, bad),
    numParallel: intVar(env, "LLMSRV_NUM_PARALLEL", 1, 1, bad),
    maxQueue: intVar(env, "LLMSRV_MAX_QUEUE", 512, 0, bad),
    contextLength: intVar(env, "LLMSRV_CONTEXT_LENGTH", 2048, 16, bad),
    flashAttention: boolVar(env, "LLMSRV_FLASH_ATTENTION", bad),
    kvCacheType: readKvCacheType(env, bad),
    numThread: readThreads(env, cores, bad),
    physicalCores: cores,
    apiKey: envRecord.LLMSRV_API_KEY?.trim() || undefined,
    logLevel,
    ...(logFormat && { logFormat }),
    maxEmbedInputs: intVar(env, "LLMSRV_MAX_EMBED_INPUTS", 2048, 1, bad),
    maxBodyBytes: intVar(env, "LLMSRV_MAX_BODY_BYTES", 32 * 1024 * 1024, 1, bad),
    templatesDir: readTemplatesDir(env, bad),
    origins: readOrigins(env, bad),
    registryUrl: readRegistryUrl(env, bad),
    registryToken: envRecord.LLMSRV_REGISTRY_TOKEN?.trim() || undefined,
    noPrune: boolVar(env, "LLMSRV_NOPRUNE", bad),
    maxNumCtx: intVar(env, "LLMSRV_MAX_NUM_CTX", 131072, 16, bad),
    maxNumBatch: intVar(env, "LLMSRV_MAX_NUM_BATCH", 2048, 1, bad),
    maxNumPredict: intVar(env, "LLMSRV_MAX_NUM_PREDICT", 32768, 1, bad),
    maxModelMemory: readMaxModelMemory(env, bad),
    accessLog: boolVar(env, "LLMSRV_ACCESS_LOG", bad),
    envNotices: env.notices,
  };
  if (config.contextLength > config.maxNumCtx) {
    bad.push(
      `${env.read("LLMSRV_CONTEXT_LENGTH").name}: ${config.contextLength} exceeds LLMSRV_MAX_NUM_CTX ${config.maxNumCtx}`,
    );
  }
  if (config.kvCacheType !== "f16" && !config.flashAttention) {
    bad.push(
      `${env.read("LLMSRV_KV_CACHE_TYPE").name}: ${config.kvCacheType} needs ${env.read("LLMSRV_FLASH_ATTENTION").name}=1 (llama.cpp quantizes the KV cache only with flash attention)`,
    );
  }
  if (bad.length > 0) throw new ConfigError(bad);
  return Object.freeze(config);
}

/**
 * The base URL the CLI calls: LLMSRV_HOST, else OLLAMA_HOST (as `ollama` reads it), else
 * http://127.0.0.1:11434. Nothing is printed about the fallback (Ollama's client prints
 * nothing either). A bad value throws a ConfigError naming the variable read.
 */
export function clientUrlFrom(envRecord: Env): string {
  const bad: string[] = [];
  const address = readHost(new ConfigEnv(envRecord), bad);
  if (bad.length > 0) throw new ConfigError(bad);
  return clientBaseUrl(address);
}
