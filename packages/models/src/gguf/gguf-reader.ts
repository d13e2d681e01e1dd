// Reads a GGUF header: metadata and tensor descriptors, with bounds on every length.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { LlmsrvError } from "../errors.js";
import { GGUF_DEFAULT_ALIGNMENT, GGUF_MAGIC, GgufValueType } from "./gguf-format.js";

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
  /** Offset of its data from the start of the data section. */
  readonly offset: number;
}

/** What the header of a GGUF file says, and where its data section lies. */
export interface GgufInfo {
  readonly version: number;
  readonly metadata: ReadonlyMap<string, GgufValue>;
  /** Element types of the arrays in `metadata`, by key. */
  readonly arrayTypes: ReadonlyMap<string, GgufValueType>;
  /** Value types of the scalars in `metadata` (u32 and f32 both read as numbers), by key. */
  readonly scalarTypes: ReadonlyMap<string, GgufValueType>;
  readonly tensors: readonly GgufTensorInfo[];
  /** Sum of the element counts of all tensors. */
  readonly parameterCount: number;
  /** `general.alignment`, or the format's default. */
  readonly alignment: number;
  /** File offset where tensor data starts (the header's end, aligned). */
  readonly dataOffset: number;
  readonly fileSize: number;
}

/** Arrays with more elements than this are kept only as a summary. */
const MAX_KEPT_ARRAY = 64;

/** Fewest bytes one metadata entry takes (key length, empty key, type, one-byte value). */
const MIN_KV_BYTES = 8 + 4 + 1;
/** Fewest bytes one tensor descriptor takes (name length, dims count, type, offset). */
const MIN_TENSOR_INFO_BYTES = 8 + 4 + 4 + 8;
/** ggml's limits: at most 4 dimensions (GGML_MAX_DIMS). */
export const GGML_MAX_DIMS = 4;

/**
 * Reads a file front to back through a 1 MiB buffer, knowing the file's size so that a
 * length or count in the header is checked against the bytes left before anything is
 * allocated or looped over.
 */
class SequentialReader {
  private buf = Buffer.alloc(0);
  private pos = 0;
  private fileOffset = 0;

  constructor(
    private readonly fd: number,
    readonly fileSize: number,
  ) {}

  /** Bytes of the file not yet consumed. */
  get remaining(): number {
    return this.fileSize - this.position;
  }

  /** File offset of the next byte to be read. */
  get position(): number {
    return this.fileOffset - (this.buf.length - this.pos);
  }

  private ensure(n: number): void {
    if (this.buf.length - this.pos >= n) return;
    if (n > this.remaining) throw notGguf("the file ends inside its header");
    const rest = this.buf.subarray(this.pos);
    const chunk = Buffer.alloc(Math.min(Math.max(n - rest.length, 1 << 20), this.remaining));
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

  /** Skips `n` bytes without reading them (long scalar arrays). */
  skip(n: number): void {
    if (n > this.remaining) throw notGguf("the file ends inside its header");
    const buffered = this.buf.length - this.pos;
    if (n <= buffered) {
      this.pos += n;
      return;
    }
    this.fileOffset += n - buffered;
    this.buf = Buffer.alloc(0);
    this.pos = 0;
  }

  u32(): number {
    return this.take(4).readUInt32LE();
  }

  u64(): number {
    const v = this.take(8).readBigUInt64LE();
    if (v > BigInt(Number.MAX_SAFE_INTEGER))
      throw notGguf(`a length in the header is out of range (${v})`);
    return Number(v);
  }

  /** A count of items each at least `minBytes` long, refused when the file cannot hold them. */
  count(what: string, minBytes: number): number {
    const n = this.u64();
    if (n * minBytes > this.remaining)
      throw notGguf(
        `${what} ${n} is larger than the file can hold (the file ends inside its header)`,
      );
    return n;
  }

  string(): string {
    const len = this.u64();
    if (len > this.remaining)
      throw notGguf(`a string of ${len} bytes is longer than the rest of the file`);
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

/** Reads an array; returns its items (or a summary when long) and its element type. */
function readArray(r: SequentialReader, maxKept: number): [GgufValue, GgufValueType] {
  const elementType = r.u32() as GgufValueType;
  if (elementType === GgufValueType.Array) throw notGguf("nested arrays are not supported");
  const size = SCALAR_SIZES[elementType];
  if (size === undefined && elementType !== GgufValueType.String)
    throw notGguf(`unknown value type ${elementType}`);
  const length = r.u64();
  if (length * (size ?? 8) > r.remaining)
    throw notGguf(`an array of ${length} elements is longer than the rest of the file`);
  if (length > maxKept && size !== undefined) {
    r.skip(length * size);
    return [{ arrayType: elementType, length }, elementType];
  }
  const keep = length <= maxKept;
  const items: GgufValue[] = [];
  for (let i = 0; i < length; i++) {
    const v = readScalar(r, elementType);
    if (keep) items.push(v);
  }
  return [keep ? items : { arrayType: elementType, length }, elementType];
}

function readTensorInfo(r: SequentialReader): GgufTensorInfo {
  const name = r.string();
  const nDims = r.u32();
  if (nDims > GGML_MAX_DIMS)
    throw notGguf(`tensor ${name} has ${nDims} dimensions (at most ${GGML_MAX_DIMS})`);
  const dims: number[] = [];
  for (let d = 0; d < nDims; d++) dims.push(r.u64());
  const type = r.u32();
  const offset = r.u64();
  return { name, dims, type, offset };
}

function alignmentOf(metadata: ReadonlyMap<string, GgufValue>): number {
  const value = metadata.get("general.alignment");
  if (value === undefined) return GGUF_DEFAULT_ALIGNMENT;
  if (
    typeof value !== "number" ||
    value <= 0 ||
    !Number.isInteger(value) ||
    (value & (value - 1)) !== 0
  )
    throw notGguf(`general.alignment ${String(value)} is not a power of two`);
  return value;
}

/** How much of the metadata to keep. */
export interface GgufReadOptions {
  /** Arrays longer than this become a summary; default 64 (`Infinity`: every array in full). */
  readonly keepArraysUpTo?: number;
}

/**
 * Reads the header of a GGUF file: metadata and tensor descriptors, never the weights.
 * Throws `not_gguf` (a 400 at the HTTP layer) naming what is wrong.
 */
export function readGgufInfo(path: string, options: GgufReadOptions = {}): GgufInfo {
  const maxKept = options.keepArraysUpTo ?? MAX_KEPT_ARRAY;
  const fd = openSync(path, "r");
  try {
    const r = new SequentialReader(fd, fstatSync(fd).size);
    if (r.fileSize < 8) throw notGguf("the file is shorter than a GGUF header");
    if (r.u32() !== GGUF_MAGIC) throw notGguf("the file does not start with the GGUF magic bytes");
    const version = r.u32();
    if (version < 2 || version > 3) throw notGguf(`unsupported GGUF version ${version}`);
    const tensorCount = r.count("tensor count", MIN_TENSOR_INFO_BYTES);
    const kvCount = r.count("metadata count", MIN_KV_BYTES);
    const metadata = new Map<string, GgufValue>();
    const arrayTypes = new Map<string, GgufValueType>();
    const scalarTypes = new Map<string, GgufValueType>();
    for (let i = 0; i < kvCount; i++) {
      const key = r.string();
      const type = r.u32() as GgufValueType;
      if (type === GgufValueType.Array) {
        const [value, elementType] = readArray(r, maxKept);
        metadata.set(key, value);
        arrayTypes.set(key, elementType);
      } else {
        metadata.set(key, readScalar(r, type));
        scalarTypes.set(key, type);
      }
    }
    const tensors: GgufTensorInfo[] = [];
    let parameterCount = 0;
    for (let i = 0; i < tensorCount; i++) {
      const t = readTensorInfo(r);
      tensors.push(t);
      parameterCount += t.dims.reduce((a, b) => a * b, 1);
    }
    const alignment = alignmentOf(metadata);
    const dataOffset = Math.ceil(r.position / alignment) * alignment;
    return {
      version,
      metadata,
      arrayTypes,
      scalarTypes,
      tensors,
      parameterCount,
      alignment,
      dataOffset,
      fileSize: r.fileSize,
    };
  } finally {
    closeSync(fd);
  }
}

/** True when the first four bytes of `head` are the GGUF magic. */
export function hasGgufMagic(head: Buffer): boolean {
  return head.length >= 4 && head.readUInt32LE(0) === GGUF_MAGIC;
}
