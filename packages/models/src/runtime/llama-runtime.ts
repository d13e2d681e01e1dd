// The node-llama-cpp runtime: loads models, tokenizes, generates and embeds.
import { stat } from "node:fs/promises";
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
import { AddonTextModel } from "./addon-text-model.js";
import { DecodePacer } from "./decode-pacer.js";
import { GeneratedText } from "./generated-text.js";
import type { BackendReport, GpuBackend, GpuMode } from "./gpu-backend.js";
import { type OpenedLlama, openLlama } from "./llama-backend.js";
import { llamaLogLine } from "./llama-log.js";
import {
  batchSizeFor,
  estimateMemory,
  insufficientMemory,
  systemAvailableMemory,
} from "./memory-estimate.js";
import type {
  CompletionRequest,
  CompletionResult,
  EmbeddingResult,
  LoadedModel,
  LoadSpec,
  ModelRuntime,
  OutputFormat,
  SamplingOptions,
} from "./model-runner.js";
import { loadMtmdAddon, type MtmdAddon } from "./mtmd/mtmd-addon.js";
import { PromptTokens } from "./prompt-tokens.js";
import { type BatchModelLoader, TextEmbedder } from "./text-embedder.js";
import { TokenTextDecoder } from "./token-text.js";

/** Options of the node-llama-cpp runtime. */
export interface LlamaRuntimeOptions {
  /** Upper bound on threads any context may use (the physical core count). */
  maxThreads: number;
  /** Bytes of memory available for a new model; defaults to MemAvailable + free swap. */
  availableMemory?: () => number;
  /** LLMSRV_GPU: which of node-llama-cpp's variants to load (default: the CPU one). */
  gpu?: GpuMode;
  /** Loads the addon text models generate on (tests make it fail); default: the built CPU one. */
  generationAddon?: () => MtmdAddon;
}

const KV_TYPES = { f16: "F16", q8_0: "Q8_0", q4_0: "Q4_0" } as const;

/**
 * The node-llama-cpp runtime: prebuilt binaries only (never builds or downloads), the CPU
 * variant or a GPU one as LLMSRV_GPU picks (llama-backend.ts), one LlamaModel + one
 * LlamaContext with `sequences` slots per loaded model.
 */
export class LlamaRuntime implements ModelRuntime {
  private llama: Promise<OpenedLlama> | undefined;
  /** The generation addon: undefined until first asked for, null where it is unavailable. */
  private addon: MtmdAddon | null | undefined;

  constructor(private readonly options: LlamaRuntimeOptions) {}

  private getLlama(): Promise<OpenedLlama> {
    this.llama ??= openLlama(this.options.gpu ?? "off", this.options.maxThreads);
    return this.llama;
  }

  /** Loads the native library ahead of the first model (a runner does this while idle). */
  async warmUp(): Promise<void> {
    await this.getLlama();
  }

  async backend(): Promise<GpuBackend> {
    return (await this.getLlama()).backend;
  }

  /** The backend the library runs on and its GPUs, or why it could not be opened. */
  async backendReport(): Promise<BackendReport> {
    try {
      const { backend, devices, vramTotal } = await this.getLlama();
      return { backend, devices, vramTotal };
    } catch (e) {
      return { error: messageOf(e) };
    }
  }

  async load(spec: LoadSpec): Promise<LoadedModel> {
    const fileSize = (await stat(spec.modelPath)).size;
    const available = (this.options.availableMemory ?? systemAvailableMemory)();
    // Refused before llama.cpp allocates anything (node-llama-cpp's own estimate simulates
    // the allocation, which for an absurd num_ctx takes minutes and gigabytes).
    const needed = spec.memoryBytes ?? fileSize;
    if (needed > available) throw insufficientMemory(needed, available);
    let model: LlamaModel | undefined;
    try {
      const { llama, backend } = await this.getLlama();
      const addon = backend === "cpu" ? this.generationAddon() : undefined;
      if (addon) {
        // Only the vocabulary here: the addon holds the weights.
        model = await llama.loadModel({ modelPath: spec.modelPath, vocabOnly: true });
        const native = await addon.loadModel({
          modelPath: spec.modelPath,
          gpuLayers: 0,
          useMmap: true,
          contextSize: spec.contextSize,
          sequences: spec.sequences,
          threads: Math.max(1, Math.min(spec.threads, this.options.maxThreads)),
          batchSize: batchSizeFor(spec.contextSize),
          flashAttention: spec.flashAttention,
          kvCacheType: spec.kvCacheType,
          adapterPaths: spec.adapterPaths,
        });
        return new AddonTextModel(model, native, spec, TextEmbedder.addonLoader(spec, backend));
      }
      model = await llama.loadModel({
        modelPath: spec.modelPath,
        gpuLayers: backend === "cpu" ? 0 : gpuLayersOption(spec),
        useMmap: true,
      });
      const context = await model.createContext({
        contextSize: spec.contextSize,
        sequences: spec.sequences,
        threads: { ideal: spec.threads, min: 1 },
        flashAttention: spec.flashAttention,
        batchSize: batchSizeFor(spec.contextSize),
        experimentalKvCacheKeyType: KV_TYPES[spec.kvCacheType],
        experimentalKvCacheValueType: KV_TYPES[spec.kvCacheType],
        // The model's LoRA adapters, at scale 1 as Ollama applies them.
        lora:
          spec.adapterPaths && spec.adapterPaths.length > 0
            ? { adapters: spec.adapterPaths.map((filePath) => ({ filePath })) }
            : undefined,
      });
      const batchEmbedder = TextEmbedder.addonLoader(spec, backend);
      return new LlamaLoadedModel(llama, model, context, spec, fileSize, batchEmbedder);
    } catch (e) {
      await model?.dispose().catch(() => {});
      if (e instanceof LlmsrvError) throw e;
      const msg = messageOf(e);
      const code = /memory|alloc/i.test(msg) ? "insufficient_memory" : "model_load_failed";
      throw new LlmsrvError(code, `failed to load model: ${msg}`, { cause: e });
    }
  }

  /**
   * Our addon, which text models on the CPU generate on (addon-text-model.ts), or undefined
   * where it was never built (no C++ compiler at install): generation then goes through
   * node-llama-cpp, slot by slot, with one warning.
   */
  private generationAddon(): MtmdAddon | undefined {
    if (this.addon === undefined) {
      try {
        this.addon =
          this.options.generationAddon?.() ?? loadMtmdAddon("cpu", { buildMissing: false });
      } catch (e) {
        this.addon = null;
        process.stderr.write(
          llamaLogLine(
            "warn",
            `generating through node-llama-cpp (the addon that decodes every slot together is unavailable: ${messageOf(e)})`,
          ),
        );
      }
    }
    return this.addon ?? undefined;
  }

  async close(): Promise<void> {
    const opened = await this.llama?.catch(() => undefined);
    await opened?.llama.dispose();
    this.llama = undefined;
  }
}

/**
 * node-llama-cpp's `gpuLayers` for a spec on a GPU build: a number as asked (node-llama-cpp
 * refuses one whose layers do not fit in free VRAM), else as many layers as fit in free VRAM
 * with room left for this spec's context (Ollama's num_gpu -1).
 */
function gpuLayersOption(spec: LoadSpec): number | { fitContext: { contextSize: number } } {
  if (spec.gpuLayers !== undefined) return spec.gpuLayers;
  return { fitContext: { contextSize: spec.contextSize * spec.sequences } };
}

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
class LlamaLoadedModel implements LoadedModel {
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
