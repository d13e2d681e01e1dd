// The dimensions of a model that size a context's memory, read from GGUF metadata.
import type { GgufInfo, GgufValue } from "./gguf-reader.js";

/**
 * The dimensions that size a context's memory (KV cache and compute buffers), read from a
 * GGUF's `<arch>.*` metadata as llama.cpp reads them.
 */
export interface ModelShape {
  blockCount: number;
  embeddingLength: number;
  /** Attention heads (the largest, when given per layer). */
  headCount: number;
  /** Key/value heads (the largest, when given per layer; 0 for a model without attention). */
  headCountKv: number;
  /** Elements of one head's key and value (default: embedding length / head count). */
  keyLength: number;
  valueLength: number;
  vocabSize: number;
}

type Meta = ReadonlyMap<string, GgufValue>;

/** A positive number, or the largest of a per-layer array; undefined when absent. */
function largest(meta: Meta, key: string): number | undefined {
  const v = meta.get(key);
  const values = Array.isArray(v) ? v : [v];
  let max: number | undefined;
  for (const x of values) {
    const n = typeof x === "number" ? x : typeof x === "bigint" ? Number(x) : undefined;
    if (n !== undefined && Number.isFinite(n) && n >= 0) max = Math.max(max ?? 0, n);
  }
  return max;
}

function vocabSize(info: GgufInfo, arch: string): number {
  const tokens = info.metadata.get("tokenizer.ggml.tokens");
  if (Array.isArray(tokens)) return tokens.length;
  if (tokens && typeof tokens === "object" && "length" in tokens) return tokens.length;
  return largest(info.metadata, `${arch}.vocab_size`) ?? 0;
}

/** The model's shape, or undefined when its metadata lacks the block count or width. */
export function shapeFromGguf(info: GgufInfo): ModelShape | undefined {
  const meta = info.metadata;
  const arch = String(meta.get("general.architecture") ?? "");
  const blockCount = largest(meta, `${arch}.block_count`);
  const embeddingLength = largest(meta, `${arch}.embedding_length`);
  if (!blockCount || !embeddingLength) return undefined;
  const headCount = largest(meta, `${arch}.attention.head_count`) ?? 0;
  const headCountKv = largest(meta, `${arch}.attention.head_count_kv`) ?? headCount;
  const headSize = headCount > 0 ? Math.floor(embeddingLength / headCount) : 0;
  return {
    blockCount,
    embeddingLength,
    headCount,
    headCountKv,
    keyLength: largest(meta, `${arch}.attention.key_length`) ?? headSize,
    valueLength: largest(meta, `${arch}.attention.value_length`) ?? headSize,
    vocabSize: vocabSize(info, arch),
  };
}
