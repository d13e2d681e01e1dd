// A text model on node-llama-cpp: one context whose sequences are the slots (GPU builds, no addon).
import {
  type Llama,
  LlamaCompletion,
  type LlamaCompletionGenerationOptions,
  type LlamaContext,
  type LlamaGrammar,
  type LlamaModel,
  type Token,
} from "node-llama-cpp";
import { LlmsrvError, messageOf } from "../errors.js";
import { readGgufInfo } from "../gguf/gguf-reader.js";
import { shapeFromGguf } from "../gguf/model-shape.js";
import { DecodePacer } from "./decode-pacer.js";
import { GeneratedText } from "./generated-text.js";
import { estimateMemory } from "./memory-estimate.js";
import type {
  CompletionRequest,
  CompletionResult,
  EmbeddingResult,
  LoadedModel,
  LoadSpec,
  OutputFormat,
  SamplingOptions,
} from "./model-runner.js";
import { PromptTokens } from "./prompt-tokens.js";
import { type BatchModelLoader, TextEmbedder } from "./text-embedder.js";
import { TokenTextDecoder } from "./token-text.js";

/** Maps validated sampling options to node-llama-cpp's generation options. */
function samplingFor(s: SamplingOptions): LlamaCompletionGenerationOptions {
  const penalize =
    s.repeatLastN > 0 &&
    (s.repeatPenalty !== 1 || s.presencePenalty !== 0 || s.frequencyPenalty !== 0);
  return {
    temperature: s.temperature,
    topK: s.topK,
    topP: s.topP,
    minP: s.minP > 0 ? s.minP : undefined,
    seed: s.seed,
    repeatPenalty: penalize
      ? {
          lastTokens: s.repeatLastN,
          penalty: s.repeatPenalty,
          presencePenalty: s.presencePenalty,
          frequencyPenalty: s.frequencyPenalty,
        }
      : false,
  };
}

/**
 * Memory a loaded model takes, as Ollama's `/api/ps` `size`: its tensors in memory
 * (llama.cpp's model size) plus the KV cache and compute buffers of the context as
 * llama.cpp sized it (the context size after its padding). llama.cpp does not report
 * the cache and buffers it allocated, so they come from memory-estimate.ts's formula.
 */
function loadedSize(
  model: LlamaModel,
  context: LlamaContext,
  spec: LoadSpec,
  fileSize: number,
): number {
  const weights = model.size > 0 ? model.size : fileSize;
  const shape = shapeFromGguf(readGgufInfo(spec.modelPath));
  const need = estimateMemory(shape, weights, { ...spec, contextSize: context.contextSize });
  return shape ? need.total : weights + context.stateSize;
}

/**
 * `size` and `size_vram` of a loaded model. With no layer on the GPU (the CPU build, or
 * num_gpu 0) they are the CPU estimate and 0, as before GPUs were supported. With layers
 * offloaded they come from llama.cpp's own buffer list: the model's and context's buffers
 * in host memory plus those on the GPU; a model with every layer offloaded counts as wholly
 * on the GPU (`ps` then says "100% GPU", as Ollama's does), though llama.cpp keeps the
 * token embeddings and a staging buffer in host memory.
 */
function loadedSizes(
  model: LlamaModel,
  context: LlamaContext,
  spec: LoadSpec,
  fileSize: number,
): { sizeBytes: number; vramBytes: number } {
  const vram = model.memoryUsage.vram + context.memoryUsage.vram;
  if (model.gpuLayers === 0 || vram === 0)
    return { sizeBytes: loadedSize(model, context, spec, fileSize), vramBytes: 0 };
  const sizeBytes = vram + model.memoryUsage.ram + context.memoryUsage.ram;
  return {
    sizeBytes,
    vramBytes: model.gpuLayers >= model.fileInsights.totalLayers ? sizeBytes : vram,
  };
}

/** A model in memory: one context whose sequences are the scheduler's slots. */
export class LlamaLoadedModel implements LoadedModel {
  readonly sizeBytes: number;
  readonly vramBytes: number;
  private readonly completions: LlamaCompletion[];
  private readonly embedder: TextEmbedder;
  private readonly prompts: PromptTokens;

  constructor(
    private readonly llama: Llama,
    private readonly model: LlamaModel,
    private readonly context: LlamaContext,
    readonly spec: LoadSpec,
    fileSize: number,
    batchEmbedder: BatchModelLoader,
  ) {
    // Paced, so that the slots generating at once are decoded in one batch per token.
    const pacer = new DecodePacer();
    this.completions = Array.from(
      { length: spec.sequences },
      (_, id) => new LlamaCompletion({ contextSequence: pacer.pace(context.getSequence(), id) }),
    );
    const sizes = loadedSizes(model, context, spec, fileSize);
    this.sizeBytes = sizes.sizeBytes;
    this.vramBytes = sizes.vramBytes;
    this.prompts = new PromptTokens(model, spec.contextSize);
    this.embedder = new TextEmbedder(model, spec, (t) => this.tokenizeNow(t), batchEmbedder);
  }

  private tokenizeNow(text: string): number[] {
    return this.prompts.tokenize(text);
  }

  async tokenize(text: string): Promise<number[]> {
    return this.tokenizeNow(text);
  }

  async detokenize(tokens: readonly number[]): Promise<string> {
    return this.model.detokenize(tokens as Token[], true);
  }

  private async grammarFor(format: OutputFormat | undefined): Promise<LlamaGrammar | undefined> {
    if (!format) return undefined;
    try {
      if (format.kind === "json") return await this.llama.getGrammarFor("json");
      return await this.llama.createGrammarForJsonSchema(format.schema as never);
    } catch (e) {
      throw new LlmsrvError(
        "bad_request",
        `invalid format: ${messageOf(e)}; expected "json" or a valid JSON Schema object`,
      );
    }
  }

  async complete(
    slot: number,
    req: CompletionRequest,
    onText: (text: string) => void,
    signal: AbortSignal,
  ): Promise<CompletionResult> {
    const completion = this.completions[slot];
    if (!completion) throw new LlmsrvError("internal", `no sequence slot ${slot}`);
    const grammar = await this.grammarFor(req.format);
    const { promptTokens, total } = this.prompts.tokensFor(req);
    const room = this.spec.contextSize - total;
    const maxTokens = Math.min(req.sampling.numPredict ?? room, room);
    const started = process.hrtime.bigint();
    if (maxTokens <= 0) return this.result("", "length", promptTokens, [], started, started, false);
    const gen = new GeneratedText(this.decoderFor(promptTokens), req.sampling.stop, onText);
    // A stop sequence ends generation through this signal (the caller's one aborts it too).
    const stopper = new AbortController();
    const forward = () => stopper.abort();
    signal.addEventListener("abort", forward, { once: true });
    if (signal.aborted) stopper.abort();
    try {
      const res = await completion.generateCompletionWithMeta(promptTokens as Token[], {
        ...samplingFor(req.sampling),
        maxTokens,
        grammar,
        disableContextShift: true,
        signal: stopper.signal,
        stopOnAbortSignal: true,
        onToken: (tokens) => {
          if (gen.add(tokens as number[])) stopper.abort();
        },
      });
      gen.finish();
      const reason = !gen.stopped && res.metadata.stopReason === "maxTokens" ? "length" : "stop";
      const result = this.result(
        gen.text,
        reason,
        promptTokens,
        gen.tokens,
        started,
        gen.firstTokenAt ?? started,
        signal.aborted,
      );
      result.promptEvalCount = total;
      // Tokens held back inside node-llama-cpp (a partial UTF-8 character) never reach
      // onToken; at the token limit exactly maxTokens were generated.
      if (reason === "length") result.evalCount = Math.max(maxTokens, gen.tokens.length);
      return result;
    } finally {
      signal.removeEventListener("abort", forward);
    }
  }

  /** A decoder of generated tokens that reads them after the prompt's last tokens. */
  private decoderFor(promptTokens: readonly number[]): TokenTextDecoder {
    const bos = this.model.tokens.bos;
    const context = promptTokens.length > 0 || bos === null ? promptTokens : [bos];
    return new TokenTextDecoder(
      (tokens, last) => this.model.detokenize(tokens as Token[], true, last as Token[]),
      context,
    );
  }

  private result(
    text: string,
    doneReason: "stop" | "length",
    promptTokens: number[],
    outputTokens: number[],
    started: bigint,
    firstToken: bigint,
    aborted: boolean,
  ): CompletionResult {
    const end = process.hrtime.bigint();
    return {
      text,
      doneReason,
      promptTokens,
      outputTokens,
      evalCount: outputTokens.length,
      promptEvalCount: promptTokens.length,
      promptEvalNs: Number(firstToken - started),
      evalNs: Number(end - firstToken),
      aborted,
    };
  }

  embed(texts: string[], truncate: boolean, signal: AbortSignal): Promise<EmbeddingResult> {
    return this.embedder.embed(texts, truncate, signal);
  }

  async unload(): Promise<void> {
    await this.embedder.dispose().catch(() => {});
    for (const c of this.completions) c.dispose({ disposeSequence: true });
    await this.context.dispose();
    await this.model.dispose();
  }
}
