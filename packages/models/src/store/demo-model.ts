import { GgmlTensorType } from "./gguf-format.js";
import { type GgufTensorSpec, type GgufTypedValue, gguf, writeGgufFile } from "./gguf-writer.js";

/**
 * Shape of a generated llama-architecture model. The defaults give the demo model:
 * embedding length 2048 (the vector store's dimension), one layer, f16 weights, ~22 MB.
 */
export interface DemoModelShape {
  name: string;
  embeddingLength: number;
  headCount: number;
  headCountKv: number;
  feedForwardLength: number;
  blockCount: number;
  contextLength: number;
  seed: number;
}

/** The shape of `demo:latest`. */
export const DEMO_MODEL_SHAPE: Readonly<DemoModelShape> = Object.freeze({
  name: "demo",
  embeddingLength: 2048,
  headCount: 16,
  headCountKv: 4,
  feedForwardLength: 512,
  blockCount: 1,
  contextLength: 2048,
  seed: 20240917,
});

/**
 * A ChatML-style Jinja chat template. Tools are listed in a system turn and the model is
 * asked to answer with `<tool_call>{json}</tool_call>`, the form the chat route parses.
 */
export const DEMO_CHAT_TEMPLATE = [
  "{%- if tools %}<|im_start|>system\n",
  'You may call these tools by answering <tool_call>{"name": ..., "arguments": {...}}</tool_call>:\n',
  "{%- for tool in tools %}\n{{ tool | tojson }}{%- endfor %}<|im_end|>\n{% endif %}",
  "{%- for message in messages %}<|im_start|>{{ message.role }}\n{{ message.content }}<|im_end|>\n",
  "{% endfor %}{%- if add_generation_prompt %}<|im_start|>assistant\n{% endif %}",
].join("");

/** SentencePiece's word-boundary marker, kept as a normal token so spaces round-trip. */
const SPACE_PIECE = "\u2581";

/** Token kinds of llama.cpp's vocabulary (`tokenizer.ggml.token_type`). */
const TokenType = { Normal: 1, Unknown: 2, Control: 3, Byte: 6 } as const;

/** Byte-level SPM vocabulary: `<unk>`, `<s>`, `</s>`, 256 byte tokens `<0xNN>`, then `▁`. */
export function byteVocabulary(): { tokens: string[]; types: number[]; scores: number[] } {
  const tokens = ["<unk>", "<s>", "</s>"];
  const types: number[] = [TokenType.Unknown, TokenType.Control, TokenType.Control];
  for (let b = 0; b < 256; b++) {
    tokens.push(`<0x${b.toString(16).toUpperCase().padStart(2, "0")}>`);
    types.push(TokenType.Byte);
  }
  tokens.push(SPACE_PIECE);
  types.push(TokenType.Normal);
  return { tokens, types, scores: tokens.map(() => 0) };
}

/** mulberry32: a small deterministic PRNG, so the same seed always writes the same bytes. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const f32Scratch = new Float32Array(1);
const u32Scratch = new Uint32Array(f32Scratch.buffer);

/** Converts a float to IEEE half precision bits (round to nearest; range here is small). */
export function toHalf(value: number): number {
  f32Scratch[0] = value;
  const x = u32Scratch[0] ?? 0;
  const sign = (x >>> 16) & 0x8000;
  const exp = ((x >>> 23) & 0xff) - 127 + 15;
  const mant = x & 0x7fffff;
  if (exp <= 0) return sign; // flush tiny values to zero
  if (exp >= 31) return sign | 0x7c00;
  return sign | (exp << 10) | ((mant + 0x1000) >>> 13);
}

function randomF16(count: number, scale: number, next: () => number): Buffer {
  const buf = Buffer.alloc(count * 2);
  for (let i = 0; i < count; i++) buf.writeUInt16LE(toHalf((next() * 2 - 1) * scale), i * 2);
  return buf;
}

function onesF32(count: number): Buffer {
  const buf = Buffer.alloc(count * 4);
  for (let i = 0; i < count; i++) buf.writeFloatLE(1, i * 4);
  return buf;
}

/** True for tokens the demo model should favour: printable ASCII bytes and the space piece. */
function isPrintableToken(id: number, vocabSize: number): boolean {
  const byte = id - 3;
  return (byte >= 0x20 && byte <= 0x7e) || id === vocabSize - 1;
}

/**
 * Random weights give a flat distribution over every token, control tokens and stray
 * UTF-8 bytes included. A constant first dimension in every token embedding, read by
 * the output matrix with a positive weight for printable tokens and a negative one for
 * the rest, makes the noise printable ASCII and end-of-text practically never sampled.
 */
function biasPrintable(embd: Buffer, output: Buffer, e: number, vocabSize: number): void {
  for (let t = 0; t < vocabSize; t++) {
    embd.writeUInt16LE(toHalf(0.5), t * e * 2);
    output.writeUInt16LE(toHalf(isPrintableToken(t, vocabSize) ? 0.4 : -1.5), t * e * 2);
  }
}

function tensorList(shape: DemoModelShape, vocabSize: number): GgufTensorSpec[] {
  const next = prng(shape.seed);
  const e = shape.embeddingLength;
  const kv = (e / shape.headCount) * shape.headCountKv;
  const ff = shape.feedForwardLength;
  const matrix = (name: string, cols: number, rows: number): GgufTensorSpec => ({
    name,
    dims: [cols, rows],
    type: GgmlTensorType.F16,
    data: () => randomF16(cols * rows, 1 / Math.sqrt(cols), next),
  });
  const norm = (name: string): GgufTensorSpec => ({
    name,
    dims: [e],
    type: GgmlTensorType.F32,
    data: () => onesF32(e),
  });
  const embd = matrix("token_embd.weight", e, vocabSize);
  const output = matrix("output.weight", e, vocabSize);
  // Both are produced together (the PRNG order stays fixed) so the bias can touch both.
  let pair: [Buffer, Buffer] | undefined;
  const both = (): [Buffer, Buffer] => {
    if (!pair) {
      pair = [embd.data(), output.data()];
      biasPrintable(pair[0], pair[1], e, vocabSize);
    }
    return pair;
  };
  const list = [
    { ...embd, data: () => both()[0] },
    norm("output_norm.weight"),
    { ...output, data: () => both()[1] },
  ];
  for (let i = 0; i < shape.blockCount; i++) {
    const p = `blk.${i}`;
    list.push(norm(`${p}.attn_norm.weight`), matrix(`${p}.attn_q.weight`, e, e));
    list.push(matrix(`${p}.attn_k.weight`, e, kv), matrix(`${p}.attn_v.weight`, e, kv));
    list.push(matrix(`${p}.attn_output.weight`, e, e), norm(`${p}.ffn_norm.weight`));
    list.push(matrix(`${p}.ffn_gate.weight`, e, ff), matrix(`${p}.ffn_down.weight`, ff, e));
    list.push(matrix(`${p}.ffn_up.weight`, e, ff));
  }
  return list;
}

function metadataFor(shape: DemoModelShape): Array<[string, GgufTypedValue]> {
  const vocab = byteVocabulary();
  return [
    ["general.architecture", gguf.str("llama")],
    ["general.name", gguf.str(shape.name)],
    ["general.file_type", gguf.u32(1)],
    ["general.license", gguf.str("Unlicense (generated noise weights)")],
    ["llama.context_length", gguf.u32(shape.contextLength)],
    ["llama.embedding_length", gguf.u32(shape.embeddingLength)],
    ["llama.feed_forward_length", gguf.u32(shape.feedForwardLength)],
    ["llama.block_count", gguf.u32(shape.blockCount)],
    ["llama.attention.head_count", gguf.u32(shape.headCount)],
    ["llama.attention.head_count_kv", gguf.u32(shape.headCountKv)],
    ["llama.attention.layer_norm_rms_epsilon", gguf.f32(1e-5)],
    ["llama.rope.dimension_count", gguf.u32(shape.embeddingLength / shape.headCount)],
    ["llama.vocab_size", gguf.u32(vocab.tokens.length)],
    ["tokenizer.ggml.model", gguf.str("llama")],
    ["tokenizer.ggml.tokens", gguf.strings(vocab.tokens)],
    ["tokenizer.ggml.scores", gguf.f32s(vocab.scores)],
    ["tokenizer.ggml.token_type", gguf.i32s(vocab.types)],
    ["tokenizer.ggml.unknown_token_id", gguf.u32(0)],
    ["tokenizer.ggml.bos_token_id", gguf.u32(1)],
    ["tokenizer.ggml.eos_token_id", gguf.u32(2)],
    ["tokenizer.ggml.add_bos_token", gguf.bool(true)],
    ["tokenizer.chat_template", gguf.str(DEMO_CHAT_TEMPLATE)],
  ];
}

/**
 * Writes a llama-architecture GGUF with a byte-level vocabulary and seeded random weights.
 * Deterministic: the same shape always gives the same bytes (and so the same digest).
 * Its output is noise; it exists so the server, its tests and the vector store work
 * without downloading a model.
 */
export async function writeDemoModel(
  path: string,
  shape: Partial<DemoModelShape> = {},
): Promise<void> {
  const { metadata, tensors } = demoModelParts(shape);
  await writeGgufFile(path, metadata, tensors);
}

/** The metadata and tensors of a generated model, before serialisation. */
export function demoModelParts(shape: Partial<DemoModelShape> = {}): {
  metadata: Array<[string, GgufTypedValue]>;
  tensors: GgufTensorSpec[];
} {
  const full: DemoModelShape = { ...DEMO_MODEL_SHAPE, ...shape };
  if (full.embeddingLength % full.headCount !== 0 || full.headCount % full.headCountKv !== 0) {
    throw new RangeError("demo model: embedding length and head counts must divide evenly");
  }
  const vocabSize = byteVocabulary().tokens.length;
  return { metadata: metadataFor(full), tensors: tensorList(full, vocabSize) };
}
