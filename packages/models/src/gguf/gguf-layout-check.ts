// Checks of a GGUF's tensor layout (types, offsets, sizes) against the file.
import { LlmsrvError } from "../errors.js";
import { GGML_TYPE_TRAITS } from "./gguf-format.js";
import type { GgufInfo, GgufTensorInfo } from "./gguf-reader.js";

/**
 * Checks of a GGUF's tensor layout against the file: every tensor has a known type, a
 * byte size that follows from its type and dimensions, and data that is aligned, inside
 * the file and overlapping no other tensor. llama.cpp trusts much of this; a file that
 * lies here can make it read past a mapping or divide by zero, so create refuses it.
 */

/** ggml's longest tensor name (GGML_MAX_NAME 64, including the terminating zero). */
const MAX_TENSOR_NAME = 63;

/** A 400 naming what is wrong with a model file. */
export function invalidModel(detail: string): LlmsrvError {
  return new LlmsrvError("not_gguf", `invalid model file: ${detail}`);
}

/** Bytes of a tensor's data; throws when its type or shape cannot be stored. */
export function tensorBytes(t: GgufTensorInfo): number {
  const traits = GGML_TYPE_TRAITS[t.type];
  if (!traits) throw invalidModel(`tensor ${t.name} has unknown type ${t.type}`);
  const first = t.dims[0] ?? 1;
  if (first % traits.blockSize !== 0) {
    throw invalidModel(
      `tensor ${t.name}: first dimension ${first} is not a multiple of the type's block size ${traits.blockSize}`,
    );
  }
  let elements = 1;
  for (const d of t.dims) {
    elements *= d;
    if (!Number.isSafeInteger(elements))
      throw invalidModel(`tensor ${t.name} has more elements than any file can hold`);
  }
  const bytes = (elements / traits.blockSize) * traits.typeSize;
  if (!Number.isSafeInteger(bytes))
    throw invalidModel(`tensor ${t.name} is larger than any file can hold`);
  return bytes;
}

function checkNames(tensors: readonly GgufTensorInfo[]): void {
  const seen = new Set<string>();
  for (const t of tensors) {
    if (Buffer.byteLength(t.name) > MAX_TENSOR_NAME)
      throw invalidModel(`tensor name "${t.name.slice(0, 40)}..." is longer than 63 bytes`);
    if (seen.has(t.name)) throw invalidModel(`tensor ${t.name} appears twice`);
    seen.add(t.name);
  }
}

/** Checks sizes, alignment, bounds and overlap of every tensor's data. */
export function checkTensorLayout(info: GgufInfo): void {
  checkNames(info.tensors);
  const dataBytes = info.fileSize - info.dataOffset;
  if (info.tensors.length > 0 && dataBytes <= 0)
    throw invalidModel("the file ends before its tensor data begins");
  const spans: Array<{ name: string; start: number; end: number }> = [];
  for (const t of info.tensors) {
    const size = tensorBytes(t);
    if (t.offset % info.alignment !== 0) {
      throw invalidModel(
        `tensor ${t.name} starts at offset ${t.offset}, not aligned to ${info.alignment} bytes`,
      );
    }
    const end = t.offset + size;
    if (end > dataBytes) {
      throw invalidModel(
        `tensor ${t.name} (${size} bytes at offset ${t.offset}) lies past the end of the file (${dataBytes} bytes of data): the file is truncated or the offset is wrong`,
      );
    }
    spans.push({ name: t.name, start: t.offset, end });
  }
  spans.sort((a, b) => a.start - b.start || a.end - b.end);
  for (let i = 1; i < spans.length; i++) {
    const prev = spans[i - 1];
    const cur = spans[i];
    if (prev && cur && cur.start < prev.end && cur.end > cur.start)
      throw invalidModel(`tensors ${prev.name} and ${cur.name} overlap in the file`);
  }
}
