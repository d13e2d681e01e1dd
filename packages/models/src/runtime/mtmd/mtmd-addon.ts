// Loads our native mtmd addon for a GPU variant, building it first when it is missing or older than its sources.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { LlmsrvError, messageOf } from "../../errors.js";
import { llamaLogLine } from "../llama-log.js";

/** node-llama-cpp's prebuilt library variants the addon can be linked against. */
export type MtmdVariant = "cpu" | "cuda" | "vulkan";

/** Options of `MtmdAddon.loadModel` (see native/src/addon.cpp). */
export interface NativeLoadOptions {
  modelPath: string;
  projectorPath?: string;
  /** Layers offloaded to the GPU; -1: all. */
  gpuLayers: number;
  useMmap?: boolean;
  /** Window of one sequence; the context holds contextSize × sequences tokens. */
  contextSize: number;
  sequences: number;
  threads: number;
  batchSize: number;
  /** "auto": llama.cpp's choice (on where the backend supports it). */
  flashAttention: boolean | "auto";
  kvCacheType: "f16" | "q8_0" | "q4_0";
  /**
   * A context for embed(): `sequences` texts share one window of `contextSize` tokens and
   * are decoded together. Such a model is used for embed() only.
   */
  embeddings?: boolean;
  /**
   * For `embeddings` on a model that does not pool: the graph tensor whose rows are read as
   * each text's vector during the decode, so that no logits are computed (default
   * "result_norm", what llama.cpp returns as a token's embedding); null: llama.cpp's own
   * embeddings, every token an output. Tests name a tensor no graph has to reach the
   * fallback (native/src/hidden-capture.h).
   */
  hiddenStateTensor?: string | null;
  /** LoRA adapter GGUFs applied at scale 1, in order. */
  adapterPaths?: readonly string[];
}

/**
 * The context settings of `embeddingContext` (the model is the one it is called on), and
 * `computeInTurns`: compute one graph at a time with the model's own context, on its thread
 * pool (native/src/compute-turns.h), instead of on threads of its own at the same time.
 */
export type EmbeddingContextOptions = { computeInTurns?: boolean } & Pick<
  NativeLoadOptions,
  | "contextSize"
  | "sequences"
  | "threads"
  | "batchSize"
  | "flashAttention"
  | "kvCacheType"
  | "hiddenStateTensor"
>;

/** What `info()` reports of a loaded model. */
export interface NativeModelInfo {
  embeddingLength: number;
  vocabularySize: number;
  /** Tokens one sequence holds. */
  contextSize: number;
  /** The beginning-of-text token to place first, or -1 when the model adds none. */
  bos: number;
  modelBytes: number;
  stateBytes: number;
  vramBytes: number;
  vision: boolean;
  audio: boolean;
  /** mtmd's media marker (`<__media__>`). */
  marker: string;
}

/** One chunk of a prepared prompt. */
export type NativeChunk =
  | { type: "text"; tokens: Int32Array; tokenCount: number; positions: number }
  | { type: "image" | "audio"; tokenCount: number; positions: number };

/** Sampling settings of `configureSampler` (llama.cpp's sampler chain). */
export interface NativeSamplerSettings {
  temperature: number;
  topK: number;
  topP: number;
  minP: number;
  repeatPenalty: number;
  repeatLastN: number;
  presencePenalty: number;
  frequencyPenalty: number;
  seed: number;
  /** GBNF with a `root` rule. */
  grammar?: string;
}

/**
 * A model loaded by the addon. Promise-returning calls run on libuv's pool, one decode at a
 * time per model; they reject with an Error whose `code` is BAD_INPUT (the caller's input),
 * ABORTED (abort(seq) stopped it) or NATIVE_ERROR.
 */
export interface NativeMtmdModel {
  info(): NativeModelInfo;
  /** Tokens of text, special tokens parsed, nothing added. */
  tokenize(text: string): Int32Array;
  /** The bytes of `tokens` read after `context` (a first token keeps its leading space). */
  detokenize(tokens: Int32Array, context?: Int32Array): Buffer;
  isEndOfGeneration(token: number): boolean;
  /** Decodes the media and splits the text at its markers into chunks kept on `seq`. */
  prepare(seq: number, text: string, media: Uint8Array[]): Promise<NativeChunk[]>;
  /**
   * Evaluates the items on `seq` from position 0: token arrays, or indexes of the chunks the
   * last prepare() kept. When the items are all tokens, the part of the sequence's cache they
   * start with is kept and only the rest is decoded. Resolves with the tokens the sequence
   * then holds (media included).
   */
  evaluate(seq: number, items: Array<Int32Array | number>): Promise<number>;
  /** Sets `seq`'s sampler chain; `history` feeds the repetition penalties. */
  configureSampler(seq: number, settings: NativeSamplerSettings, history?: Int32Array): void;
  /**
   * Keeps the start of `tokens` that `seq`'s cache holds (all but the last at most) and drops
   * the rest of it; resolves with how many were kept, where append() continues.
   */
  keepPrefix(seq: number, tokens: Int32Array): Promise<number>;
  /** Decodes `tokens` at `seq`'s next position, keeping the last one's logits when asked. */
  append(seq: number, tokens: Int32Array, logits: boolean): Promise<void>;
  /**
   * One generation step of several sequences in one llama_decode: each `feeds[i]` (unless
   * -1) is decoded on `sequences[i]`, then each samples its next token. A sequence whose
   * sampler fails gets token -1 and its message in `errors` (others null).
   */
  step(
    sequences: Int32Array,
    feeds: Int32Array,
  ): Promise<{ tokens: Int32Array; errors: Array<string | null> }>;
  /** The logits after the last evaluated token of `seq`. */
  logits(seq: number): Float32Array;
  /**
   * The embeddings of token lists (each a text with its special tokens), several texts per
   * decode: the pooled vector of pooled models, else the last token's. Only on a model loaded
   * with `embeddings`; a list longer than the window rejects with BAD_INPUT, and abort(0)
   * stops a call in progress (ABORTED).
   */
  embed(texts: Int32Array[]): Promise<Float32Array[]>;
  /**
   * A second context on this model's weights (loaded once) for embed(): the context settings
   * of `options`, `embeddings` implied, no projector, no adapters.
   */
  embeddingContext(options: EmbeddingContextOptions): Promise<NativeMtmdModel>;
  /** Stops `seq`'s decode in progress (between ubatches). */
  abort(seq: number): void;
  clear(seq: number): Promise<void>;
  dispose(): Promise<void>;
}

/** The addon's error codes as the package's errors (`what`: the operation that failed). */
export function fromNative(e: unknown, what: string): LlmsrvError {
  if (e instanceof LlmsrvError) return e;
  const code = (e as { code?: unknown }).code;
  if (code === "BAD_INPUT") return new LlmsrvError("bad_request", messageOf(e), { cause: e });
  return new LlmsrvError("internal", `${what}: ${messageOf(e)}`, { cause: e });
}

/** True for the rejection of a call that abort(seq) stopped. */
export function isAborted(e: unknown): boolean {
  return (e as { code?: unknown }).code === "ABORTED";
}

/** The addon's exports. */
export interface MtmdAddon {
  loadModel(options: NativeLoadOptions): Promise<NativeMtmdModel>;
}

interface BuiltAddon {
  init(libDir: string): void;
  loadModel(options: NativeLoadOptions): Promise<NativeMtmdModel>;
}

/** The package's native/ folder (sources and build script), found above this module. */
function nativeDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "native", "build-addon.mjs"))) {
    const up = dirname(dir);
    if (up === dir) throw new Error("the package's native/ folder (build-addon.mjs) is missing");
    dir = up;
  }
  return `${join(dir, "native")}/`;
}

/** Where the build script puts a variant's addon and its facts. */
export function addonPaths(variant: MtmdVariant): { file: string; facts: string } {
  const dir = `${nativeDir()}build/${variant}/`;
  return { file: `${dir}mtmd-addon.node`, facts: `${dir}addon.json` };
}

/**
 * True when a file of the addon's sources (`srcDir`) changed after `file` was linked, so a
 * checkout with a fixed source rebuilds rather than running the old addon. (The build script
 * recompiles only what changed.)
 */
export function addonOutdated(file: string, srcDir: string): boolean {
  const built = statSync(file).mtimeMs;
  return readdirSync(srcDir).some((n) => statSync(join(srcDir, n)).mtimeMs > built);
}

/** Runs the build script (stderr passed through: its progress), throwing what it reported. */
function build(variant: MtmdVariant): void {
  const script = `${nativeDir()}build-addon.mjs`;
  // Written as llama.cpp's lines are, so the server logs them at info level (llama-log.ts).
  const say = (line: string) => process.stderr.write(llamaLogLine("info", line));
  say("building the multimodal addon (first use or changed sources; minutes on two cores)");
  const res = spawnSync(process.execPath, [script], { stdio: ["ignore", "ignore", "pipe"] });
  const stderr = res.stderr?.toString() ?? "";
  for (const line of stderr.split("\n")) if (line.trim() !== "") say(line);
  if (res.status !== 0) {
    const reason = stderr.match(/failed: ([^\n]*(?:\n(?!llmsrv native:)[^\n]*)*)/)?.[1];
    throw new Error(reason?.trim() || `the build script exited with ${res.status ?? res.signal}`);
  }
  if (!existsSync(addonPaths(variant).file)) {
    throw new Error(
      `the ${variant} variant is not installed (its node-llama-cpp package is absent)`,
    );
  }
}

const loaded = new Map<MtmdVariant, MtmdAddon>();

/**
 * The addon linked against `variant`'s libraries, built on first need when missing or
 * outdated (a failed build throws model_load_failed naming what failed). One variant per process:
 * each has its own copy of llama.cpp. `buildMissing: false` throws at once when it was never
 * built (for a caller with another way to do the work) and still rebuilds an outdated one.
 */
export function loadMtmdAddon(
  variant: MtmdVariant = "cpu",
  { buildMissing = true }: { buildMissing?: boolean } = {},
): MtmdAddon {
  const cached = loaded.get(variant);
  if (cached) return cached;
  const paths = addonPaths(variant);
  try {
    const missing = !existsSync(paths.file) || !existsSync(paths.facts);
    if (missing && !buildMissing) throw new Error(`it is not built (${paths.file})`);
    if (missing || addonOutdated(paths.file, `${nativeDir()}src`)) build(variant);
    const facts = JSON.parse(readFileSync(paths.facts, "utf8")) as { libDir: string };
    const addon = createRequire(import.meta.url)(paths.file) as BuiltAddon;
    addon.init(facts.libDir);
    const api: MtmdAddon = { loadModel: (o) => addon.loadModel(o) };
    loaded.set(variant, api);
    return api;
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new LlmsrvError(
      "model_load_failed",
      `the multimodal addon (${variant}) is not available: ${why}`,
      { cause: e },
    );
  }
}
