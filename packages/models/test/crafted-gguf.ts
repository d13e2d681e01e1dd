import { demoModelParts } from "../src/demo/demo-model.js";
import { GGUF_DEFAULT_ALIGNMENT, GGUF_MAGIC, GGUF_VERSION } from "../src/gguf/gguf-format.js";
import { GgufHeaderBuilder, type GgufTypedValue, gguf } from "../src/gguf/gguf-writer.js";

/**
 * Builds GGUF files whose every header field can lie: counts, type ids, dimensions,
 * offsets. Tests start from a valid tiny llama model and change one thing.
 */

/** Raw bytes written after a key in place of a typed value (type id included). */
export interface RawValue {
  raw: Buffer;
}

/** A tensor as the descriptor states it; `data` is laid out whatever the descriptor says. */
export interface CraftedTensor {
  name: string;
  dims: number[];
  type: number;
  /** Overrides the offset written in the descriptor (data stays where it was laid out). */
  offset?: number;
  data: Buffer;
}

/** Every part of a GGUF file, each overridable. */
export interface CraftedGguf {
  magic: number;
  version: number;
  tensorCount?: bigint;
  kvCount?: bigint;
  metadata: Array<[string, GgufTypedValue | RawValue]>;
  tensors: CraftedTensor[];
}

/** Where the sections of an encoded file start. */
export interface CraftedLayout {
  bytes: Buffer;
  /** Offset where the tensor descriptors start. */
  tensorInfoStart: number;
  /** Offset of the (aligned) data section. */
  dataStart: number;
}

const align = (n: number) => Math.ceil(n / GGUF_DEFAULT_ALIGNMENT) * GGUF_DEFAULT_ALIGNMENT;

/** The small valid model every broken file is derived from (embedding 64, one block). */
export function baseModel(): CraftedGguf {
  const { metadata, tensors } = demoModelParts({
    embeddingLength: 64,
    headCount: 4,
    headCountKv: 2,
    feedForwardLength: 128,
    contextLength: 256,
    seed: 99,
    vocabulary: "bytes",
  });
  return {
    magic: GGUF_MAGIC,
    version: GGUF_VERSION,
    metadata: metadata.map(([k, v]) => [k, v]),
    tensors: tensors.map((t) => ({
      name: t.name,
      dims: [...t.dims],
      type: t.type,
      data: t.data(),
    })),
  };
}

function u64(n: bigint): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(n);
  return b;
}

/** Serialises a crafted file, laying tensor data out contiguously at aligned offsets. */
export function encodeCrafted(g: CraftedGguf): CraftedLayout {
  const h = new GgufHeaderBuilder();
  h.u32(g.magic);
  h.u32(g.version);
  h.push(u64(g.tensorCount ?? BigInt(g.tensors.length)));
  h.push(u64(g.kvCount ?? BigInt(g.metadata.length)));
  for (const [key, value] of g.metadata) {
    h.string(key);
    if ("raw" in value) h.push(value.raw);
    else h.value(value);
  }
  const tensorInfoStart = h.size;
  let offset = 0;
  const placed: number[] = [];
  for (const t of g.tensors) {
    h.string(t.name);
    h.u32(t.dims.length);
    for (const d of t.dims) h.push(u64(BigInt(d)));
    h.u32(t.type);
    h.push(u64(BigInt(t.offset ?? offset)));
    placed.push(offset);
    offset = align(offset + t.data.length);
  }
  const dataStart = align(h.size);
  const out = Buffer.alloc(dataStart + offset);
  h.toBuffer().copy(out, 0);
  g.tensors.forEach((t, i) => {
    t.data.copy(out, dataStart + (placed[i] ?? 0));
  });
  return { bytes: out, tensorInfoStart, dataStart };
}

/** A copy of `g` with metadata `key` set (replaced in place, or appended). */
export function withMeta(
  g: CraftedGguf,
  key: string,
  value: GgufTypedValue | RawValue,
): CraftedGguf {
  const metadata = g.metadata.filter(([k]) => k !== key);
  const at = g.metadata.findIndex(([k]) => k === key);
  metadata.splice(at < 0 ? metadata.length : at, 0, [key, value]);
  return { ...g, metadata };
}

/** A copy of `g` without metadata `key`. */
export function withoutMeta(g: CraftedGguf, key: string): CraftedGguf {
  return { ...g, metadata: g.metadata.filter(([k]) => k !== key) };
}

/** A copy of `g` with the named tensor's descriptor changed. */
export function withTensor(
  g: CraftedGguf,
  name: string,
  change: Partial<CraftedTensor>,
): CraftedGguf {
  return { ...g, tensors: g.tensors.map((t) => (t.name === name ? { ...t, ...change } : t)) };
}

/** Raw value bytes: a type id, then the payload. */
export function rawValue(typeId: number, payload: Buffer = Buffer.alloc(0)): RawValue {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(typeId);
  return { raw: Buffer.concat([b, payload]) };
}

/** An array value header claiming `length` elements of `elementType`, with no elements. */
export function rawArray(elementType: number, length: bigint): RawValue {
  const head = Buffer.alloc(4);
  head.writeUInt32LE(elementType);
  return rawValue(9, Buffer.concat([head, u64(length)]));
}

export { gguf };
