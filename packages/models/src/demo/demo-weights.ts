// The demo model's tensors: weights chosen so that it answers with words of its prompt.
import { GgmlTensorType } from "../gguf/gguf-format.js";
import type { GgufTensorSpec } from "../gguf/gguf-writer.js";
import { encodeTensor } from "../gguf/tensor-encoding.js";
import type { DemoVocabulary, TokenRole } from "./demo-vocabulary.js";

/**
 * The demo model's weights: a llama whose last position's hidden state is the mean of its
 * tokens' vectors, so its embedding (node-llama-cpp reads the last token's state) reflects
 * the words two texts share.
 *
 * - Every block's attention has zero query and key weights, so every position attends
 *   evenly to itself and all before it; the value weights are the identity and the output
 *   weights ATTENTION_GAIN times the identity, so a block adds that multiple of the mean of
 *   its (RMS-normalised) inputs to the residual. The feed-forward weights are zero.
 * - A word's token vector is random (seeded by its stem, so "Whale", "whales" and "whaling"
 *   share one), of RMS well above the norm epsilon, so normalising gives it full weight in
 *   the mean. Every other token (function words, word pieces, bytes, control) has values so
 *   far below the epsilon that normalising leaves them 1/45 of a word's length: they add
 *   next to nothing to a text's vector.
 * - Dimension 0 is a bias: every token's normalised vector has about BIAS there (0.5 of a
 *   length near sqrt(embedding length) for words), and the output matrix reads it with a
 *   large positive weight for printable ASCII bytes and a large negative one for the rest,
 *   so generated noise is printable ASCII, never words, control tokens or stray bytes.
 */

/** `llama.attention.layer_norm_rms_epsilon` of the demo model: the weights rely on it. */
export const DEMO_RMS_EPSILON = 1e-5;

/** A word vector's values are uniform in ±WORD_SCALE (RMS 0.029, far above sqrt(epsilon)). */
const WORD_SCALE = 0.05;
/** Dimension 0 of every normalised token vector. */
const BIAS = 0.5;
/** BIAS for generated projectors: their embeddings carry it in dimension 0 as words do. */
export const DEMO_TOKEN_BIAS = BIAS;
/** Output weight on dimension 0: plus for printable bytes, minus for every other token. */
const OUTPUT_BIAS = 30;
/** The attention output's multiple of the mean: the residual token itself becomes minor. */
const ATTENTION_GAIN = 64;

/** Shape fields the weights depend on. */
export interface WeightShape {
  embeddingLength: number;
  headCount: number;
  headCountKv: number;
  feedForwardLength: number;
  blockCount: number;
  seed: number;
}

/** mulberry32: a small deterministic PRNG, so the same seed always writes the same bytes. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a of a string's UTF-16 units: the seed of a stem's vector. */
function hashOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * Fills `row` (length e) with a token's embedding: for a word, values of RMS WORD_SCALE/sqrt(3)
 * seeded by its stem; for any other token, values seeded by its text that normalise to a
 * length of about 1 (a word's is sqrt(e)), enough to vary generated noise, too little to move
 * an embedding. Dimension 0 is set so that it normalises to BIAS.
 */
function tokenVector(role: TokenRole, token: string, seed: number, row: Float32Array): void {
  const word = role.kind === "word";
  const next = prng(hashOf(word ? role.stem : token) ^ seed);
  const scale = word ? WORD_SCALE : Math.sqrt((3 * DEMO_RMS_EPSILON) / row.length);
  for (let i = 1; i < row.length; i++) row[i] = (next() * 2 - 1) * scale;
  row[0] = BIAS * Math.sqrt((scale * scale) / 3 + DEMO_RMS_EPSILON);
}

/**
 * +1 for the tokens generation may produce: printable ASCII bytes (so noise text reads like
 * the first demo's, and JSON grammars meet a closing quote often enough); -1 for the rest.
 */
function outputPreference(role: TokenRole, token: string): number {
  if (role.kind !== "byte") return -1;
  const byte = Number.parseInt(token.slice(3, 5), 16);
  return byte >= 0x20 && byte <= 0x7e ? 1 : -1;
}

/** The type of every matrix: Q8_0 where rows split into its 32-value blocks, else F16. */
export function matrixType(cols: number): GgmlTensorType {
  return cols % 32 === 0 ? GgmlTensorType.Q8_0 : GgmlTensorType.F16;
}

/** A matrix of `cols` x `rows` (ggml order) whose values `fill` writes, row after row. */
function matrix(
  name: string,
  cols: number,
  rows: number,
  fill: (values: Float32Array) => void,
): GgufTensorSpec {
  const type = matrixType(cols);
  return {
    name,
    dims: [cols, rows],
    type,
    data: () => {
      const values = new Float32Array(cols * rows);
      fill(values);
      return encodeTensor(values, type);
    },
  };
}

const zeros = () => {};
const scaledIdentity = (cols: number, rows: number, scale: number) => (values: Float32Array) => {
  for (let r = 0; r < Math.min(cols, rows); r++) values[r * cols + r] = scale;
};

function ones(name: string, e: number): GgufTensorSpec {
  return {
    name,
    dims: [e],
    type: GgmlTensorType.F32,
    data: () => encodeTensor(new Float32Array(e).fill(1), GgmlTensorType.F32),
  };
}

/** The tensors of a generated model over `vocab`, in the order llama.cpp lists them. */
export function demoTensors(shape: WeightShape, vocab: DemoVocabulary): GgufTensorSpec[] {
  const e = shape.embeddingLength;
  const kv = (e / shape.headCount) * shape.headCountKv;
  const ff = shape.feedForwardLength;
  const n = vocab.tokens.length;
  const embd = matrix("token_embd.weight", e, n, (values) => {
    vocab.roles.forEach((role, t) => {
      const row = values.subarray(t * e, (t + 1) * e);
      tokenVector(role, vocab.tokens[t] ?? "", shape.seed, row);
    });
  });
  const output = matrix("output.weight", e, n, (values) => {
    const next = prng(shape.seed);
    const scale = 1 / Math.sqrt(e);
    for (let i = 0; i < values.length; i++) values[i] = (next() * 2 - 1) * scale;
    vocab.roles.forEach((role, t) => {
      values[t * e] = OUTPUT_BIAS * outputPreference(role, vocab.tokens[t] ?? "");
    });
  });
  const list = [embd, ones("output_norm.weight", e), output];
  for (let i = 0; i < shape.blockCount; i++) {
    const p = `blk.${i}`;
    list.push(ones(`${p}.attn_norm.weight`, e), matrix(`${p}.attn_q.weight`, e, e, zeros));
    list.push(matrix(`${p}.attn_k.weight`, e, kv, zeros));
    list.push(matrix(`${p}.attn_v.weight`, e, kv, scaledIdentity(e, kv, 1)));
    list.push(matrix(`${p}.attn_output.weight`, e, e, scaledIdentity(e, e, ATTENTION_GAIN)));
    list.push(ones(`${p}.ffn_norm.weight`, e), matrix(`${p}.ffn_gate.weight`, e, ff, zeros));
    list.push(
      matrix(`${p}.ffn_down.weight`, ff, e, zeros),
      matrix(`${p}.ffn_up.weight`, e, ff, zeros),
    );
  }
  return list;
}
