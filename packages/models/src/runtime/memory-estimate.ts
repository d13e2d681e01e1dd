// Estimates a load's memory (weights, KV cache, compute) and refuses what will not fit.
import { readFileSync } from "node:fs";
import { freemem } from "node:os";
import { LlmsrvError } from "../errors.js";
import type { ModelShape } from "../gguf/model-shape.js";
import type { LoadSpec } from "./model-runner.js";

/**
 * Bytes per KV cache element of each cache type: ggml's block size over its element
 * count (f16 2; q8_0 34 bytes per 32; q4_0 18 bytes per 32).
 */
export const KV_BYTES_PER_ELEMENT: Readonly<Record<LoadSpec["kvCacheType"], number>> = {
  f16: 2,
  q8_0: 34 / 32,
  q4_0: 18 / 32,
};

/** The batch llama.cpp is given for a context of `contextSize` tokens (llama-runtime.ts). */
export function batchSizeFor(contextSize: number): number {
  return Math.min(512, contextSize);
}

/** What a model loaded with a spec needs, in bytes. */
export interface MemoryNeed {
  weights: number;
  kvCache: number;
  compute: number;
  total: number;
}

/**
 * Estimates a load before llama.cpp is asked for it (llama.cpp allocates first and fails
 * late, and node-llama-cpp's own estimate simulates the allocation):
 * - weights: the GGUF's size (memory-mapped, but every page is read);
 * - KV cache: n_ctx (all sequences) x n_layer x (n_embd_k_gqa + n_embd_v_gqa) x bytes per
 *   element of the cache type;
 * - compute buffers: f32 activations of one batch, the larger of the attention scores
 *   (n_ctx x heads per token, without flash attention) and the logits (vocabulary per
 *   token), the formula Ollama uses for llama-type models.
 * Without a known shape (metadata lacking block count or width) only the weights count.
 */
export function estimateMemory(
  shape: ModelShape | undefined,
  fileSize: number,
  spec: Pick<LoadSpec, "contextSize" | "sequences" | "kvCacheType" | "flashAttention">,
): MemoryNeed {
  if (!shape) return { weights: fileSize, kvCache: 0, compute: 0, total: fileSize };
  const ctx = spec.contextSize * spec.sequences;
  const perToken = shape.headCountKv * (shape.keyLength + shape.valueLength) * shape.blockCount;
  const kvCache = ctx * perToken * KV_BYTES_PER_ELEMENT[spec.kvCacheType];
  const batch = batchSizeFor(spec.contextSize);
  const attention =
    1 + 4 * shape.embeddingLength + (spec.flashAttention ? ctx : ctx * (1 + shape.headCount));
  const logits = shape.embeddingLength + shape.vocabSize;
  const compute = 4 * batch * Math.max(attention, logits);
  return { weights: fileSize, kvCache, compute, total: fileSize + kvCache + compute };
}

/**
 * The part of a load's need that stays in system memory when it runs on a GPU build, for
 * the check made before loading (kept simple; VRAM itself is fitted by node-llama-cpp):
 * - num_gpu 0: everything, as on the CPU;
 * - num_gpu n: the weights and KV cache of the layers left on the CPU (n of the model's
 *   block count + 1 output layer go to the GPU, as node-llama-cpp counts them), plus the
 *   compute buffers;
 * - all that fit (undefined): only the compute buffers. What does not fit in VRAM stays in
 *   system memory, and node-llama-cpp's own check refuses a load that fits in neither.
 */
export function hostMemoryNeed(
  need: MemoryNeed,
  gpuLayers: number | undefined,
  blockCount: number | undefined,
): number {
  if (gpuLayers === 0) return need.total;
  if (gpuLayers === undefined || blockCount === undefined) return need.compute;
  const layers = blockCount + 1;
  const onCpu = Math.max(0, layers - gpuLayers) / layers;
  return Math.ceil((need.weights + need.kvCache) * onCpu) + need.compute;
}

/** Bytes as Ollama prints them (Go's format.HumanBytes2): `1.5 GiB`, `200.0 MiB`. */
export function formatBytes(bytes: number): string {
  const units: Array<[number, string]> = [
    [2 ** 30, "GiB"],
    [2 ** 20, "MiB"],
    [2 ** 10, "KiB"],
  ];
  for (const [size, unit] of units)
    if (bytes >= size) return `${(bytes / size).toFixed(1)} ${unit}`;
  return `${Math.max(0, Math.floor(bytes))} B`;
}

/** Ollama's 500 for a load that does not fit. */
export function insufficientMemory(needed: number, available: number): LlmsrvError {
  return new LlmsrvError(
    "insufficient_memory",
    `model requires more system memory (${formatBytes(needed)}) than is available (${formatBytes(available)})`,
  );
}

/**
 * Memory a new model may use: MemAvailable plus free swap from /proc/meminfo (what
 * Ollama counts on Linux), else the OS's free memory.
 */
export function systemAvailableMemory(): number {
  try {
    const text = readFileSync("/proc/meminfo", "utf8");
    const kib = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(text)?.[1]);
    const available = kib("MemAvailable");
    if (Number.isFinite(available)) return (available + (kib("SwapFree") || 0)) * 1024;
  } catch {
    // not Linux
  }
  return freemem();
}
