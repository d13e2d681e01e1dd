// Validates request and Modelfile options into sampling and load settings.
import { OPTION_KINDS, type OptionKind } from "../api/options.js";
import type { LlmsrvConfig } from "../config.js";
import { LlmsrvError } from "../errors.js";
import type { SamplingOptions } from "./model-runner.js";
import { DEFAULT_NUM_KEEP } from "./prompt-window.js";

/** Request options after validation: sampling plus load-time settings. */
export interface ResolvedOptions {
  sampling: SamplingOptions;
  numCtx: number;
  numThread: number;
  /**
   * Layers to offload to the GPU (`num_gpu`): undefined = all that fit (-1, or any negative
   * value, as Ollama reads it), 0 = CPU only, n = n layers.
   */
  numGpu: number | undefined;
  /** The seed the request asked for (0 or negative = random). */
  requestedSeed: number;
}

/** Defaults of the spec's options table (and Ollama's for the rest). */
export const OPTION_DEFAULTS = Object.freeze({
  temperature: 0.8,
  seed: 0,
  top_k: 40,
  top_p: 0.9,
  min_p: 0,
  repeat_penalty: 1.0,
  repeat_last_n: 64,
  presence_penalty: 0,
  frequency_penalty: 0,
  num_predict: -1,
});

function checkType(key: string, value: unknown, kind: OptionKind): void {
  if (kind === "strings") {
    const ok =
      typeof value === "string" ||
      (Array.isArray(value) && value.every((s) => typeof s === "string"));
    if (!ok)
      throw new LlmsrvError("invalid_options", `option "${key}" must be of type array of strings`);
    return;
  }
  if (typeof value !== "number" || !Number.isFinite(value)) {
    const t = kind === "int" ? "integer" : "float32";
    throw new LlmsrvError("invalid_options", `option "${key}" must be of type ${t}`);
  }
}

/** What a request may ask for at most (LLMSRV_MAX_NUM_*), and the thread bound. */
export interface OptionLimits {
  maxThreads: number;
  maxNumCtx: number;
  maxNumBatch: number;
  maxNumPredict: number;
}

function checkCaps(o: Record<string, number>, limits: OptionLimits): void {
  const caps: Array<[string, number, string]> = [
    ["num_ctx", limits.maxNumCtx, "LLMSRV_MAX_NUM_CTX"],
    ["num_batch", limits.maxNumBatch, "LLMSRV_MAX_NUM_BATCH"],
    ["num_predict", limits.maxNumPredict, "LLMSRV_MAX_NUM_PREDICT"],
  ];
  for (const [key, cap, variable] of caps) {
    const v = o[key];
    if (v !== undefined && v > cap)
      throw new LlmsrvError(
        "invalid_options",
        `option "${key}" must not exceed ${cap} (${variable}), got ${v}`,
      );
  }
  if (o.num_batch !== undefined && o.num_batch < 1)
    throw new LlmsrvError("invalid_options", `option "num_batch" must be >= 1, got ${o.num_batch}`);
}

function checkRange(o: Record<string, number>, maxThreads: number): void {
  const fail = (msg: string) => {
    throw new LlmsrvError("invalid_options", msg);
  };
  if (o.temperature < 0) fail(`option "temperature" must be >= 0, got ${o.temperature}`);
  if (o.top_k < 0) fail(`option "top_k" must be >= 0, got ${o.top_k}`);
  if (o.top_p < 0 || o.top_p > 1) fail(`option "top_p" must be between 0 and 1, got ${o.top_p}`);
  if (o.min_p < 0 || o.min_p > 1) fail(`option "min_p" must be between 0 and 1, got ${o.min_p}`);
  if (o.num_ctx < 16) fail(`option "num_ctx" must be >= 16, got ${o.num_ctx}`);
  if (o.num_thread < 0) fail(`option "num_thread" must be >= 0, got ${o.num_thread}`);
  if (o.num_thread > maxThreads) {
    fail(
      `option "num_thread" must not exceed the physical core count ${maxThreads}, got ${o.num_thread}`,
    );
  }
  if (o.repeat_last_n < -1) fail(`option "repeat_last_n" must be >= -1, got ${o.repeat_last_n}`);
}

/** The defaults and limits of resolveOptions, from the server configuration. */
export function optionDefaults(
  c: LlmsrvConfig,
): { numCtx: number; numThread: number } & OptionLimits {
  return {
    numCtx: c.contextLength,
    numThread: c.numThread,
    maxThreads: c.physicalCores,
    maxNumCtx: c.maxNumCtx,
    maxNumBatch: c.maxNumBatch,
    maxNumPredict: c.maxNumPredict,
  };
}

/**
 * Merges defaults, model parameters (Modelfile PARAMETER) and request options, in that
 * order, validating types and ranges (400 `invalid_options` naming the option).
 */
export function resolveOptions(
  modelParams: Readonly<Record<string, unknown>>,
  requestOptions: unknown,
  defaults: { numCtx: number; numThread: number } & OptionLimits,
): ResolvedOptions {
  if (
    requestOptions !== undefined &&
    requestOptions !== null &&
    (typeof requestOptions !== "object" || Array.isArray(requestOptions))
  ) {
    throw new LlmsrvError("invalid_options", "options must be a JSON object");
  }
  const merged: Record<string, unknown> = {
    ...OPTION_DEFAULTS,
    num_ctx: defaults.numCtx,
    num_thread: defaults.numThread,
  };
  for (const source of [modelParams, (requestOptions ?? {}) as Record<string, unknown>]) {
    for (const [key, value] of Object.entries(source)) {
      const kind = OPTION_KINDS[key];
      if (!kind || value === null || value === undefined) continue;
      checkType(key, value, kind);
      merged[key] = kind === "int" ? Math.trunc(value as number) : value;
    }
  }
  const n = merged as Record<string, number>;
  if (n.num_thread === 0) n.num_thread = defaults.numThread;
  checkRange(n, defaults.maxThreads);
  checkCaps(n, defaults);
  const stop =
    merged.stop === undefined
      ? []
      : typeof merged.stop === "string"
        ? [merged.stop]
        : (merged.stop as string[]);
  const requestedSeed = n.seed;
  return {
    numCtx: n.num_ctx,
    numThread: n.num_thread,
    numGpu: n.num_gpu === undefined || n.num_gpu < 0 ? undefined : n.num_gpu,
    requestedSeed,
    sampling: {
      temperature: n.temperature,
      seed: requestedSeed > 0 ? requestedSeed : 1 + Math.floor(Math.random() * 0x7ffffffe),
      topK: n.top_k,
      topP: n.top_p,
      minP: n.min_p,
      repeatPenalty: n.repeat_penalty,
      repeatLastN: n.repeat_last_n === -1 ? n.num_ctx : n.repeat_last_n,
      presencePenalty: n.presence_penalty,
      frequencyPenalty: n.frequency_penalty,
      // Unbounded (-1) stops at the cap, or earlier when the context is full.
      numPredict: n.num_predict < 0 ? defaults.maxNumPredict : n.num_predict,
      stop: stop.filter((s) => s !== ""),
      numKeep: typeof merged.num_keep === "number" ? n.num_keep : DEFAULT_NUM_KEEP,
    },
  };
}
