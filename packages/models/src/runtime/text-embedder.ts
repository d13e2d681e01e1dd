// Embeddings of a text model: a call's texts decoded together on our addon, else one by one.
import type { LlamaEmbeddingContext, LlamaModel, Token } from "node-llama-cpp";
import { LlmsrvError, messageOf } from "../errors.js";
import type { GpuBackend } from "./gpu-backend.js";
import { llamaLogLine } from "./llama-log.js";
import { batchSizeFor } from "./memory-estimate.js";
import type { EmbeddingResult, LoadSpec } from "./model-runner.js";
import {
  type EmbeddingContextOptions,
  loadMtmdAddon,
  type NativeMtmdModel,
} from "./mtmd/mtmd-addon.js";
import { beginningTokenOf } from "./prompt-tokens.js";

/** Texts one decode may hold (each its own sequence; at most a ubatch of tokens in all). */
export const EMBED_SEQUENCES = 16;

/** Loads the addon model that embeds several texts per decode (tests inject a failure). */
export type BatchModelLoader = () => Promise<NativeMtmdModel>;

/**
 * The tokens node-llama-cpp's embedding context evaluates for `tokens` (its
 * `_prepareInput`, after llama.cpp's tokenizer rules): the vocabulary's beginning token
 * unless already first, its end token unless already last. Both paths evaluate exactly
 * these tokens.
 */
export function withSpecialTokens(model: LlamaModel, tokens: readonly number[]): number[] {
  const t = model.tokens;
  const type = model.vocabularyType as string;
  const begin = beginningTokenOf(model);
  let end: number | null = null;
  if (type === "wpm") end = t.sep;
  else if (type === "ugm") end = t.eos;
  else if (type !== "rwkv") end = t.shouldAppendEosToken ? t.eos : null;
  const out = [...tokens];
  if (begin !== null && out[0] !== begin) out.unshift(begin);
  if (end !== null && out.at(-1) !== end) out.push(end);
  return out;
}

/**
 * Embeds for one loaded text model. node-llama-cpp's embedding context reads sequence 0
 * only, so a batch of texts would be computed one after another; our addon (built with the
 * package, linked to the same llama.cpp) gives every text of a call its own sequence and
 * decodes them together, as Ollama's embedding runner does (and, for a model that does not
 * pool, computes no logits: native/src/hidden-capture.h). On the CPU its context is a
 * second one on the weights the model generates with (addon-text-model.ts); where
 * node-llama-cpp generates (GPU builds) the addon loads the model a second time, and a GPU
 * holds the weights twice. Where the addon is not built (no compiler at install)
 * or fails to load, the texts go one by one through node-llama-cpp, with one warning.
 */
export class TextEmbedder {
  private batchModel: Promise<NativeMtmdModel | undefined> | undefined;
  private single: Promise<LlamaEmbeddingContext> | undefined;
  /** Calls take turns: each decodes the whole window, and the single path has one sequence. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly model: LlamaModel,
    private readonly spec: LoadSpec,
    private readonly tokenize: (text: string) => number[],
    private readonly loadBatchModel: BatchModelLoader,
  ) {}

  /** The settings of the context that embeds a call's texts together. */
  static contextOptions(spec: LoadSpec): EmbeddingContextOptions {
    return {
      contextSize: spec.contextSize,
      sequences: EMBED_SEQUENCES,
      threads: spec.threads,
      batchSize: batchSizeFor(spec.contextSize),
      // As node-llama-cpp's embedding context (llama.cpp's choice): a text decoded alone
      // gets the vector it got before this path existed, bit for bit.
      flashAttention: "auto",
      kvCacheType: spec.kvCacheType,
    };
  }

  /** The addon loader for a model loaded on `backend` (the same variant of llama.cpp). */
  static addonLoader(spec: LoadSpec, backend: GpuBackend): BatchModelLoader {
    return () =>
      loadMtmdAddon(backend, { buildMissing: false }).loadModel({
        ...TextEmbedder.contextOptions(spec),
        modelPath: spec.modelPath,
        gpuLayers: backend === "cpu" ? 0 : (spec.gpuLayers ?? -1),
        useMmap: true,
        embeddings: true,
      });
  }

  embed(texts: string[], truncate: boolean, signal: AbortSignal): Promise<EmbeddingResult> {
    const run = () => this.run(texts, truncate, signal);
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async run(texts: string[], truncate: boolean, signal: AbortSignal) {
    if (signal.aborted) throw canceled();
    const inputs = texts.map((text) => this.inputTokens(text, truncate));
    const promptTokens = inputs.reduce((n, t) => n + t.counted, 0);
    const native = await this.batched();
    const lists = inputs.map((t) => t.tokens);
    const vectors = native
      ? await embedTogether(native, lists, signal)
      : await this.embedOneByOne(lists, signal);
    return { vectors, promptTokens };
  }

  /** A text's tokens as evaluated, and how many count as prompt tokens (before BOS/EOS). */
  private inputTokens(text: string, truncate: boolean): { tokens: number[]; counted: number } {
    let tokens = this.tokenize(text);
    // Room for the beginning and end tokens: the input must be shorter than the window.
    const limit = this.spec.contextSize - 3;
    if (tokens.length > limit) {
      if (!truncate)
        throw new LlmsrvError("bad_request", "the input length exceeds the context length");
      tokens = tokens.slice(0, limit);
    }
    const bos = this.model.tokens.bos;
    if (tokens.length === 0 && bos !== null) tokens = [bos];
    const counted = tokens.length;
    return { tokens: tokens.length === 0 ? [] : withSpecialTokens(this.model, tokens), counted };
  }

  private batched(): Promise<NativeMtmdModel | undefined> {
    this.batchModel ??= this.loadBatchModel().catch((e: unknown) => {
      process.stderr.write(
        llamaLogLine(
          "warn",
          `embedding one text at a time (the addon that decodes several together is unavailable: ${messageOf(e)})`,
        ),
      );
      return undefined;
    });
    return this.batchModel;
  }

  private async embedOneByOne(lists: number[][], signal: AbortSignal): Promise<number[][]> {
    this.single ??= this.model.createEmbeddingContext({
      contextSize: this.spec.contextSize,
      threads: this.spec.threads,
      batchSize: batchSizeFor(this.spec.contextSize),
    });
    const ctx = await this.single;
    const vectors: number[][] = [];
    for (const tokens of lists) {
      if (signal.aborted) throw canceled();
      if (tokens.length === 0) {
        vectors.push([]);
        continue;
      }
      const e = await ctx.getEmbeddingFor(tokens as Token[]);
      vectors.push([...e.vector]);
    }
    return vectors;
  }

  async dispose(): Promise<void> {
    const batch = await this.batchModel;
    await batch?.dispose();
    const single = await this.single?.catch(() => undefined);
    await single?.dispose();
  }
}

function canceled(): LlmsrvError {
  return new LlmsrvError("request_canceled", "request canceled");
}

/** Every text of `lists` through one native call (an empty list: an empty vector, as before). */
async function embedTogether(
  native: NativeMtmdModel,
  lists: number[][],
  signal: AbortSignal,
): Promise<number[][]> {
  const filled = lists.filter((t) => t.length > 0).map((t) => Int32Array.from(t));
  const onAbort = () => native.abort(0);
  signal.addEventListener("abort", onAbort, { once: true });
  let found: Float32Array[];
  try {
    found = filled.length === 0 ? [] : await native.embed(filled);
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (code === "ABORTED") throw canceled();
    if (code === "BAD_INPUT") throw new LlmsrvError("bad_request", messageOf(e), { cause: e });
    throw new LlmsrvError("internal", `embedding failed: ${messageOf(e)}`, { cause: e });
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
  let next = 0;
  return lists.map((t) => (t.length === 0 ? [] : Array.from(found[next++] ?? [])));
}
