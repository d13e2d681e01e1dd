// Checks of a GGUF's architecture metadata against its tensors, before llama.cpp loads it.
import { GgufValueType } from "./gguf-format.js";
import { invalidModel } from "./gguf-layout-check.js";
import type { GgufInfo, GgufTensorInfo, GgufValue } from "./gguf-reader.js";

/**
 * Checks of a GGUF's architecture metadata against its tensors. llama.cpp sizes its
 * graph from the metadata and asserts (aborting the process) when it is absurd, so a
 * file whose counts or shapes contradict its tensors is refused at create time.
 * Generic checks apply to every architecture; shape checks to the llama family, whose
 * tensor layout is known here. Anything else is left to the trial load.
 */

/** llama.cpp's LLAMA_MAX_LAYERS. */
const MAX_LAYERS = 512;

/** Architectures that share llama's tensor names and shapes. */
const LLAMA_FAMILY = new Set(["llama", "qwen2", "qwen3"]);

type Meta = ReadonlyMap<string, GgufValue>;

/** A numeric metadata value; undefined when absent, 400 when present but not a number. */
function numberAt(meta: Meta, key: string): number | undefined {
  const v = meta.get(key);
  if (v === undefined) return undefined;
  if (typeof v === "number") return v;
  if (typeof v === "bigint") return Number(v);
  if (Array.isArray(v) || typeof v === "object") return undefined; // per-layer arrays
  throw invalidModel(`${key} must be a number, got ${JSON.stringify(v)}`);
}

function positive(meta: Meta, key: string, required: boolean): number | undefined {
  const n = numberAt(meta, key);
  if (n === undefined) {
    if (required) throw invalidModel(`${key} is missing`);
    return undefined;
  }
  if (!Number.isInteger(n) || n <= 0) throw invalidModel(`${key} must be > 0, got ${n}`);
  return n;
}

function arrayLength(meta: Meta, key: string): number | undefined {
  const v = meta.get(key);
  if (v === undefined) return undefined;
  if (Array.isArray(v)) return v.length;
  if (typeof v === "object" && v !== null && "length" in v) return v.length;
  throw invalidModel(`${key} must be an array`);
}

/** block_count matches the `blk.N.*` tensors: every index below it present, none above. */
function checkBlocks(info: GgufInfo, arch: string, family: boolean): void {
  const key = `${arch}.block_count`;
  const count = positive(info.metadata, key, family);
  const indices = new Set<number>();
  for (const t of info.tensors) {
    const m = /^blk\.(\d+)\./.exec(t.name);
    if (m) indices.add(Number(m[1]));
  }
  if (count === undefined) return;
  if (count > MAX_LAYERS)
    throw invalidModel(`${key} is ${count}, more than llama.cpp's limit of ${MAX_LAYERS}`);
  const highest = Math.max(-1, ...indices);
  if (highest + 1 !== count || indices.size !== count) {
    const have =
      indices.size === 0
        ? "no block tensors"
        : `tensors for ${indices.size} blocks (highest blk.${highest})`;
    throw invalidModel(`${key} is ${count} but the file has ${have}`);
  }
}

/** Vocabulary arrays agree with each other and with the token embedding's row count. */
function checkVocab(info: GgufInfo, arch: string): number | undefined {
  const tokens = arrayLength(info.metadata, "tokenizer.ggml.tokens");
  if (tokens !== undefined && info.arrayTypes.get("tokenizer.ggml.tokens") !== GgufValueType.String)
    throw invalidModel("tokenizer.ggml.tokens must be an array of strings");
  for (const key of ["tokenizer.ggml.scores", "tokenizer.ggml.token_type"]) {
    const n = arrayLength(info.metadata, key);
    if (n !== undefined && n !== tokens)
      throw invalidModel(`${key} has ${n} entries but tokenizer.ggml.tokens has ${tokens ?? 0}`);
  }
  const vocab = positive(info.metadata, `${arch}.vocab_size`, false) ?? tokens;
  const embd = info.tensors.find((t) => t.name === "token_embd.weight");
  if (vocab !== undefined && embd && embd.dims.length === 2 && embd.dims[1] !== vocab) {
    throw invalidModel(
      `token_embd.weight has ${embd.dims[1]} rows but the vocabulary has ${vocab} tokens`,
    );
  }
  return vocab;
}

/** Head counts and dimensions of a llama-family model. */
interface LlamaDims {
  embd: number;
  vocab: number | undefined;
  ff: number | undefined;
  q: number;
  k: number;
  v: number;
  o: number;
}

function llamaDims(meta: Meta, arch: string, vocab: number | undefined): LlamaDims {
  const embd = positive(meta, `${arch}.embedding_length`, true) as number;
  const heads = positive(meta, `${arch}.attention.head_count`, true) as number;
  const kvHeads = positive(meta, `${arch}.attention.head_count_kv`, false) ?? heads;
  if (heads % kvHeads !== 0) {
    throw invalidModel(
      `${arch}.attention.head_count_kv ${kvHeads} does not divide ${arch}.attention.head_count ${heads}`,
    );
  }
  const keyLength = positive(meta, `${arch}.attention.key_length`, false);
  const valueLength = positive(meta, `${arch}.attention.value_length`, false);
  if ((keyLength === undefined || valueLength === undefined) && embd % heads !== 0) {
    throw invalidModel(
      `${arch}.embedding_length ${embd} is not divisible by ${arch}.attention.head_count ${heads}`,
    );
  }
  const headK = keyLength ?? embd / heads;
  const headV = valueLength ?? embd / heads;
  const rot = positive(meta, `${arch}.rope.dimension_count`, false);
  if (rot !== undefined && rot > headK)
    throw invalidModel(`${arch}.rope.dimension_count ${rot} exceeds the head size ${headK}`);
  const ff = positive(meta, `${arch}.feed_forward_length`, false);
  return {
    embd,
    vocab,
    ff,
    q: headK * heads,
    k: headK * kvHeads,
    v: headV * kvHeads,
    o: headV * heads,
  };
}

/** Expected shape (ggml order, innermost first) of a llama-family tensor, if known. */
function expectedShape(name: string, d: LlamaDims): Array<number | undefined> | undefined {
  const base = name.replace(/^blk\.\d+\./, "");
  const table: Record<string, Array<number | undefined>> = {
    "token_embd.weight": [d.embd, d.vocab],
    "output.weight": [d.embd, d.vocab],
    "output_norm.weight": [d.embd],
    "attn_norm.weight": [d.embd],
    "attn_q.weight": [d.embd, d.q],
    "attn_k.weight": [d.embd, d.k],
    "attn_v.weight": [d.embd, d.v],
    "attn_output.weight": [d.o, d.embd],
    "ffn_norm.weight": [d.embd],
    "ffn_gate.weight": [d.embd, d.ff],
    "ffn_up.weight": [d.embd, d.ff],
    "ffn_down.weight": [d.ff, d.embd],
  };
  return table[base];
}

function shapeText(dims: ReadonlyArray<number | undefined>): string {
  return `[${dims.map((x) => x ?? "?").join(", ")}]`;
}

function checkShape(t: GgufTensorInfo, expected: ReadonlyArray<number | undefined>): void {
  const n = Math.max(t.dims.length, expected.length);
  for (let i = 0; i < n; i++) {
    const want = i < expected.length ? expected[i] : 1;
    const got = t.dims[i] ?? 1;
    if (want !== undefined && want !== got) {
      throw invalidModel(
        `tensor ${t.name} has shape ${shapeText(t.dims)}, expected ${shapeText(expected)} from the metadata`,
      );
    }
  }
}

/** Refuses a GGUF whose architecture metadata contradicts its tensors. */
export function checkArchitecture(info: GgufInfo): void {
  const arch = info.metadata.get("general.architecture");
  if (typeof arch !== "string" || arch === "")
    throw invalidModel("general.architecture is missing or not a string");
  const family = LLAMA_FAMILY.has(arch);
  positive(info.metadata, `${arch}.context_length`, family);
  checkBlocks(info, arch, family);
  const vocab = checkVocab(info, arch);
  if (!family) return;
  if (!info.tensors.some((t) => t.name === "token_embd.weight"))
    throw invalidModel("tensor token_embd.weight is missing");
  const dims = llamaDims(info.metadata, arch, vocab);
  for (const t of info.tensors) {
    const expected = expectedShape(t.name, dims);
    if (expected) checkShape(t, expected);
  }
}
