import { closeSync, openSync, readSync } from "node:fs";
import { LlmsrvError } from "../errors.js";
import { GGUF_MAGIC, GgufValueType } from "./gguf-format.js";

/** A metadata value as read: scalars, strings, or arrays (long arrays summarised). */
export type GgufValue = string | number | bigint | boolean | GgufValue[] | GgufArraySummary;

/** Stand-in for an array longer than the reader keeps (e.g. a 128k-token vocabulary). */
export interface GgufArraySummary {
  readonly arrayType: GgufValueType;
  readonly length: number;
}

/** A tensor descriptor from the header. */
export interface GgufTensorInfo {
  readonly name: string;
  readonly dims: readonly number[];
  readonly type: number;
}

/** What the header of a GGUF file says. */
export interface GgufInfo {
  readonly version: number;
  readonly metadata: ReadonlyMap<string, GgufValue>;
  readonly tensors: readonly GgufTensorInfo[];
  /** Sum of the element counts of all tensors. */
  readonly parameterCount: number;
}

/** Arrays with more elements than this are kept only as a summary. */
const MAX_KEPT_ARRAY = 64;

/** Reads a file front to back through a 1 MiB buffer. */
class SequentialReader {
  private buf = Buffer.alloc(0);
  private pos = 0;
  private fileOffset = 0;

  constructor(private readonly fd: number) {}

  private ensure(n: number): void {
    if (this.buf.length - this.pos >= n) return;
    const rest = this.buf.subarray(this.pos);
    const chunk = Buffer.alloc(Math.max(n - rest.length, 1 << 20));
    const read = readSync(this.fd, chunk, 0, chunk.length, this.fileOffset);
    this.fileOffset += read;
    this.buf = Buffer.concat([rest, chunk.subarray(0, read)]);
    this.pos = 0;
    if (this.buf.length < n) throw notGguf("the file ends inside its header");
  }

  take(n: number): Buffer {
    this.ensure(n);
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  u32(): number {
    return this.take(4).readUInt32LE();
  }

  u64(): number {
    const v = this.take(8).readBigUInt64LE();
    if (v > BigInt(Number.MAX_SAFE_INTEGER))
      throw notGguf("a length in the header is out of range");
    return Number(v);
  }

  string(): string {
    const len = this.u64();
    if (len > 1 << 26) throw notGguf("a string in the header is implausibly long");
    return this.take(len).toString("utf8");
  }
}

function notGguf(detail: string): LlmsrvError {
  return new LlmsrvError("not_gguf", `supplied file was not in GGUF format: ${detail}`);
}

const SCALAR_SIZES: Partial<Record<GgufValueType, number>> = {
  [GgufValueType.Uint8]: 1,
  [GgufValueType.Int8]: 1,
  [GgufValueType.Uint16]: 2,
  [GgufValueType.Int16]: 2,
  [GgufValueType.Uint32]: 4,
  [GgufValueType.Int32]: 4,
  [GgufValueType.Float32]: 4,
  [GgufValueType.Bool]: 1,
  [GgufValueType.Uint64]: 8,
  [GgufValueType.Int64]: 8,
  [GgufValueType.Float64]: 8,
};

function readScalar(r: SequentialReader, type: GgufValueType): GgufValue {
  if (type === GgufValueType.String) return r.string();
  const size = SCALAR_SIZES[type];
  if (size === undefined) throw notGguf(`unknown value type ${type}`);
  const b = r.take(size);
  switch (type) {
    case GgufValueType.Uint8:
      return b.readUInt8();
    case GgufValueType.Int8:
      return b.readInt8();
    case GgufValueType.Uint16:
      return b.readUInt16LE();
    case GgufValueType.Int16:
      return b.readInt16LE();
    case GgufValueType.Uint32:
      return b.readUInt32LE();
    case GgufValueType.Int32:
      return b.readInt32LE();
    case GgufValueType.Float32:
      return b.readFloatLE();
    case GgufValueType.Bool:
      return b.readUInt8() !== 0;
    case GgufValueType.Float64:
      return b.readDoubleLE();
    default: {
      const big = type === GgufValueType.Uint64 ? b.readBigUInt64LE() : b.readBigInt64LE();
      return big <= BigInt(Number.MAX_SAFE_INTEGER) && big >= -BigInt(Number.MAX_SAFE_INTEGER)
        ? Number(big)
        : big;
    }
  }
}

function readValue(r: SequentialReader, type: GgufValueType): GgufValue {
  if (type !== GgufValueType.Array) return readScalar(r, type);
  const elementType = r.u32() as GgufValueType;
  const length = r.u64();
  const keep = length <= MAX_KEPT_ARRAY;
  const items: GgufValue[] = [];
  for (let i = 0; i < length; i++) {
    const v = readValue(r, elementType);
    if (keep) items.push(v);
  }
  return keep ? items : { arrayType: elementType, length };
}

/**
 * Reads the header of a GGUF file: metadata and tensor descriptors, never the weights.
 * Throws `not_gguf` (a 400 at the HTTP layer) naming what is wrong.
 */
export function readGgufInfo(path: string): GgufInfo {
  const fd = openSync(path, "r");
  try {
    const r = new SequentialReader(fd);
    let magic: number;
    try {
      magic = r.u32();
    } catch {
      throw notGguf("the file is shorter than a GGUF header");
    }
    if (magic !== GGUF_MAGIC) throw notGguf("the file does not start with the GGUF magic bytes");
    const version = r.u32();
    if (version < 2 || version > 3) throw notGguf(`unsupported GGUF version ${version}`);
    const tensorCount = r.u64();
    const kvCount = r.u64();
    const metadata = new Map<string, GgufValue>();
    for (let i = 0; i < kvCount; i++) {
      const key = r.string();
      metadata.set(key, readValue(r, r.u32() as GgufValueType));
    }
    const tensors: GgufTensorInfo[] = [];
    let parameterCount = 0;
    for (let i = 0; i < tensorCount; i++) {
      const name = r.string();
      const nDims = r.u32();
      const dims: number[] = [];
      for (let d = 0; d < nDims; d++) dims.push(r.u64());
      const type = r.u32();
      r.u64(); // data offset: not needed for metadata
      tensors.push({ name, dims, type });
      parameterCount += dims.reduce((a, b) => a * b, 1);
    }
    return { version, metadata, tensors, parameterCount };
  } finally {
    closeSync(fd);
  }
}

/** True when the first four bytes of `head` are the GGUF magic. */
export function hasGgufMagic(head: Buffer): boolean {
  return head.length >= 4 && head.readUInt32LE(0) === GGUF_MAGIC;
}
