// Writes GGUF files: metadata of every type and tensor data, aligned.
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { rename } from "node:fs/promises";
import {
  GGML_TYPE_TRAITS,
  GGUF_DEFAULT_ALIGNMENT,
  GGUF_MAGIC,
  GGUF_VERSION,
  type GgmlTensorType,
  GgufValueType,
} from "./gguf-format.js";

/** A metadata value with its GGUF type tag. Arrays carry the element type. */
export type GgufTypedValue =
  | { type: GgufValueType.String; value: string }
  | { type: GgufValueType.Uint32 | GgufValueType.Int32; value: number }
  | { type: GgufValueType.Float32; value: number }
  | { type: GgufValueType.Bool; value: boolean }
  | { type: GgufValueType.Array; elementType: GgufValueType.String; value: readonly string[] }
  | {
      type: GgufValueType.Array;
      elementType: GgufValueType.Int32 | GgufValueType.Float32;
      value: readonly number[];
    };

/** A tensor to write: its data is produced on demand so large files stream without buffering. */
export interface GgufTensorSpec {
  name: string;
  /** Dimensions, innermost first (ggml's `ne` order). */
  dims: readonly number[];
  type: GgmlTensorType;
  /** Produces exactly `tensorByteSize` bytes (ggml's block layout for quantised types). */
  data: () => Buffer;
}

/** Small constructors for typed metadata values. */
export const gguf = {
  str: (value: string): GgufTypedValue => ({ type: GgufValueType.String, value }),
  u32: (value: number): GgufTypedValue => ({ type: GgufValueType.Uint32, value }),
  f32: (value: number): GgufTypedValue => ({ type: GgufValueType.Float32, value }),
  bool: (value: boolean): GgufTypedValue => ({ type: GgufValueType.Bool, value }),
  strings: (value: readonly string[]): GgufTypedValue => ({
    type: GgufValueType.Array,
    elementType: GgufValueType.String,
    value,
  }),
  f32s: (value: readonly number[]): GgufTypedValue => ({
    type: GgufValueType.Array,
    elementType: GgufValueType.Float32,
    value,
  }),
  i32s: (value: readonly number[]): GgufTypedValue => ({
    type: GgufValueType.Array,
    elementType: GgufValueType.Int32,
    value,
  }),
};

/** Number of bytes a tensor's data occupies (whole blocks of its type along the first dimension). */
export function tensorByteSize(t: Pick<GgufTensorSpec, "dims" | "type">): number {
  const traits = GGML_TYPE_TRAITS[t.type];
  if (!traits) throw new RangeError(`gguf writer: unknown tensor type ${t.type}`);
  if ((t.dims[0] ?? 1) % traits.blockSize !== 0) {
    throw new RangeError(
      `gguf writer: first dimension ${t.dims[0]} is not a multiple of the block size ${traits.blockSize}`,
    );
  }
  const elements = t.dims.reduce((a, b) => a * b, 1);
  return (elements / traits.blockSize) * traits.typeSize;
}

/** Grows a byte list as the header is serialised (tests use it to craft broken files). */
export class GgufHeaderBuilder {
  private readonly parts: Buffer[] = [];
  private length = 0;

  get size(): number {
    return this.length;
  }

  push(buf: Buffer): void {
    this.parts.push(buf);
    this.length += buf.length;
  }

  u32(n: number): void {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n);
    this.push(b);
  }

  u64(n: number): void {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(n));
    this.push(b);
  }

  string(s: string): void {
    const bytes = Buffer.from(s, "utf8");
    this.u64(bytes.length);
    this.push(bytes);
  }

  scalar(type: GgufValueType, v: number | boolean | string): void {
    const b = Buffer.alloc(4);
    switch (type) {
      case GgufValueType.String:
        this.string(String(v));
        return;
      case GgufValueType.Uint32:
        b.writeUInt32LE(Number(v));
        this.push(b);
        return;
      case GgufValueType.Int32:
        b.writeInt32LE(Number(v));
        this.push(b);
        return;
      case GgufValueType.Float32:
        b.writeFloatLE(Number(v));
        this.push(b);
        return;
      case GgufValueType.Bool:
        this.push(Buffer.from([v ? 1 : 0]));
        return;
      default:
        throw new RangeError(`gguf writer: unsupported value type ${type}`);
    }
  }

  value(v: GgufTypedValue): void {
    this.u32(v.type);
    if (v.type !== GgufValueType.Array) {
      this.scalar(v.type, v.value);
      return;
    }
    this.u32(v.elementType);
    this.u64(v.value.length);
    for (const item of v.value) this.scalar(v.elementType, item);
  }

  toBuffer(): Buffer {
    return Buffer.concat(this.parts, this.length);
  }
}

function alignUp(n: number, alignment: number): number {
  return Math.ceil(n / alignment) * alignment;
}

/** Serialises the header, metadata and tensor descriptors; returns it padded to alignment. */
export function encodeGgufHeader(
  metadata: ReadonlyArray<readonly [string, GgufTypedValue]>,
  tensors: readonly GgufTensorSpec[],
): Buffer {
  const h = new GgufHeaderBuilder();
  h.u32(GGUF_MAGIC);
  h.u32(GGUF_VERSION);
  h.u64(tensors.length);
  h.u64(metadata.length);
  for (const [key, value] of metadata) {
    h.string(key);
    h.value(value);
  }
  let offset = 0;
  for (const t of tensors) {
    h.string(t.name);
    h.u32(t.dims.length);
    for (const d of t.dims) h.u64(d);
    h.u32(t.type);
    h.u64(offset);
    offset = alignUp(offset + tensorByteSize(t), GGUF_DEFAULT_ALIGNMENT);
  }
  const pad = alignUp(h.size, GGUF_DEFAULT_ALIGNMENT) - h.size;
  h.push(Buffer.alloc(pad));
  return h.toBuffer();
}

/**
 * Writes a GGUF v3 file. The file appears under its final name only when complete
 * (written to a temporary name unique to this write, then renamed), so a crash never leaves a truncated model.
 */
export async function writeGgufFile(
  path: string,
  metadata: ReadonlyArray<readonly [string, GgufTypedValue]>,
  tensors: readonly GgufTensorSpec[],
): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}-${randomBytes(6).toString("hex")}`;
  const out = createWriteStream(tmp);
  const write = async (buf: Buffer) => {
    if (!out.write(buf)) await once(out, "drain");
  };
  await write(encodeGgufHeader(metadata, tensors));
  for (const t of tensors) {
    const data = t.data();
    const expected = tensorByteSize(t);
    if (data.length !== expected) {
      throw new RangeError(
        `gguf writer: tensor ${t.name} has ${data.length} bytes, expected ${expected}`,
      );
    }
    await write(data);
    const pad = alignUp(expected, GGUF_DEFAULT_ALIGNMENT) - expected;
    if (pad > 0) await write(Buffer.alloc(pad));
  }
  out.end();
  await once(out, "finish");
  await rename(tmp, path);
}
