/**
 * Constants of the GGUF file format (version 3) shared by the reader and the writer.
 * Values follow the format's published description: a little-endian header, a key/value
 * metadata section, tensor descriptors, then aligned tensor data.
 */

/** The four magic bytes every GGUF file starts with ("GGUF"). */
export const GGUF_MAGIC = 0x46554747;

/** The format version this package writes. Versions 2 and 3 are read. */
export const GGUF_VERSION = 3;

/** Default alignment of the tensor data section (overridable by `general.alignment`). */
export const GGUF_DEFAULT_ALIGNMENT = 32;

/** Type tags of metadata values. */
export enum GgufValueType {
  Uint8 = 0,
  Int8 = 1,
  Uint16 = 2,
  Int16 = 3,
  Uint32 = 4,
  Int32 = 5,
  Float32 = 6,
  Bool = 7,
  String = 8,
  Array = 9,
  Uint64 = 10,
  Int64 = 11,
  Float64 = 12,
}

/** Tensor element types this package writes (a subset of ggml's). */
export enum GgmlTensorType {
  F32 = 0,
  F16 = 1,
  Q8_0 = 8,
}

/** Names of ggml tensor types by id, for display (quantization level). */
export const GGML_TYPE_NAMES: Readonly<Record<number, string>> = {
  0: "F32",
  1: "F16",
  2: "Q4_0",
  3: "Q4_1",
  6: "Q5_0",
  7: "Q5_1",
  8: "Q8_0",
  9: "Q8_1",
  10: "Q2_K",
  11: "Q3_K",
  12: "Q4_K",
  13: "Q5_K",
  14: "Q6_K",
  15: "Q8_K",
  16: "IQ2_XXS",
  17: "IQ2_XS",
  18: "IQ3_XXS",
  19: "IQ1_S",
  20: "IQ4_NL",
  21: "IQ3_S",
  22: "IQ2_S",
  23: "IQ4_XS",
  24: "I8",
  25: "I16",
  26: "I32",
  27: "I64",
  28: "F64",
  29: "IQ1_M",
  30: "BF16",
  34: "TQ1_0",
  35: "TQ2_0",
  39: "MXFP4",
  40: "NVFP4",
  41: "Q1_0",
  42: "Q2_0",
};

/**
 * Block size (elements) and bytes per block of every ggml tensor type the bundled
 * llama.cpp knows, read from its `ggml_blck_size`/`ggml_type_size`. Ids missing here
 * (4, 5, 31-33, 36-38: removed types; anything newer) are refused.
 */
export const GGML_TYPE_TRAITS: Readonly<Record<number, { blockSize: number; typeSize: number }>> = {
  0: { blockSize: 1, typeSize: 4 },
  1: { blockSize: 1, typeSize: 2 },
  2: { blockSize: 32, typeSize: 18 },
  3: { blockSize: 32, typeSize: 20 },
  6: { blockSize: 32, typeSize: 22 },
  7: { blockSize: 32, typeSize: 24 },
  8: { blockSize: 32, typeSize: 34 },
  9: { blockSize: 32, typeSize: 36 },
  10: { blockSize: 256, typeSize: 84 },
  11: { blockSize: 256, typeSize: 110 },
  12: { blockSize: 256, typeSize: 144 },
  13: { blockSize: 256, typeSize: 176 },
  14: { blockSize: 256, typeSize: 210 },
  15: { blockSize: 256, typeSize: 292 },
  16: { blockSize: 256, typeSize: 66 },
  17: { blockSize: 256, typeSize: 74 },
  18: { blockSize: 256, typeSize: 98 },
  19: { blockSize: 256, typeSize: 50 },
  20: { blockSize: 32, typeSize: 18 },
  21: { blockSize: 256, typeSize: 110 },
  22: { blockSize: 256, typeSize: 82 },
  23: { blockSize: 256, typeSize: 136 },
  24: { blockSize: 1, typeSize: 1 },
  25: { blockSize: 1, typeSize: 2 },
  26: { blockSize: 1, typeSize: 4 },
  27: { blockSize: 1, typeSize: 8 },
  28: { blockSize: 1, typeSize: 8 },
  29: { blockSize: 256, typeSize: 56 },
  30: { blockSize: 1, typeSize: 2 },
  34: { blockSize: 256, typeSize: 54 },
  35: { blockSize: 256, typeSize: 66 },
  39: { blockSize: 32, typeSize: 17 },
  40: { blockSize: 64, typeSize: 36 },
  41: { blockSize: 128, typeSize: 18 },
  42: { blockSize: 64, typeSize: 18 },
};

/** Names of `general.file_type` values (llama.cpp's LLAMA_FTYPE_*), shown as quantization level. */
export const FILE_TYPE_NAMES: Readonly<Record<number, string>> = {
  0: "F32",
  1: "F16",
  2: "Q4_0",
  3: "Q4_1",
  7: "Q8_0",
  8: "Q5_0",
  9: "Q5_1",
  10: "Q2_K",
  11: "Q3_K_S",
  12: "Q3_K_M",
  13: "Q3_K_L",
  14: "Q4_K_S",
  15: "Q4_K_M",
  16: "Q5_K_S",
  17: "Q5_K_M",
  18: "Q6_K",
  19: "IQ2_XXS",
  20: "IQ2_XS",
  21: "Q2_K_S",
  22: "IQ3_XS",
  23: "IQ3_XXS",
  24: "IQ1_S",
  25: "IQ4_NL",
  26: "IQ3_S",
  27: "IQ3_M",
  28: "IQ2_S",
  29: "IQ2_M",
  30: "IQ4_XS",
  31: "IQ1_M",
  32: "BF16",
};
