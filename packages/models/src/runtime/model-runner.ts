/**
 * The runtime contract the scheduler and routes use. `llama-runtime.ts` implements it with
 * node-llama-cpp (with `llama-backend.ts`, the only importers of that library) and runs inside a runner process per
 * model; `process-runtime.ts` is the server's side of those processes.
 */
import type { GpuBackend } from "./gpu-backend.js";

/** Settings fixed when a model is loaded; a request needing others forces a reload. */
export interface LoadSpec {
  modelPath: string;
  /** LoRA adapter GGUFs applied to the context (the model's adapter layers), in order. */
  adapterPaths?: readonly string[];
  /**
   * The model's multimodal projector GGUF (its projector layer): the runner then evaluates
   * prompts with llama.cpp's mtmd library (our native addon) instead of node-llama-cpp.
   */
  projectorPath?: string;
  /** Layers offloaded to the GPU: undefined = all that fit (Ollama's num_gpu -1), 0 = CPU only. */
  gpuLayers?: number;
  /** Context window per sequence, in tokens (num_ctx). */
  contextSize: number;
  /** Parallel sequences (LLMSRV_NUM_PARALLEL). */
  sequences: number;
  threads: number;
  flashAttention: boolean;
  kvCacheType: "f16" | "q8_0" | "q4_0";
  /**
   * Estimated bytes the load needs (weights, KV cache, compute buffers; memory-estimate.ts),
   * checked against the memory available before llama.cpp is asked; undefined: the weights.
   */
  memoryBytes?: number;
}

/** Sampling settings of one request, already validated and defaulted. */
export interface SamplingOptions {
  temperature: number;
  /** A concrete seed (a random one is drawn upstream when the request asks for random). */
  seed: number;
  topK: number;
  topP: number;
  minP: number;
  repeatPenalty: number;
  /** Tokens considered for penalties; 0 disables them. */
  repeatLastN: number;
  presencePenalty: number;
  frequencyPenalty: number;
  /** Max tokens to generate; undefined = until the context is full. */
  numPredict: number | undefined;
  stop: string[];
  /** Prompt tokens kept at the start when a long prompt is truncated (`num_keep`). */
  numKeep: number;
}

/** Output constraint: JSON, or JSON matching a schema. */
export type OutputFormat = { kind: "json" } | { kind: "schema"; schema: object };

/** One generation. `prompt` is text that the runtime tokenizes (special tokens parsed). */
export interface CompletionRequest {
  prompt: string;
  /** Token ids placed before the prompt (a previous exchange's `context`). */
  prefixTokens?: number[];
  sampling: SamplingOptions;
  format?: OutputFormat;
  /**
   * Images and audio clips, raw bytes, that the prompt places with `[img-N]` tags (N indexes
   * this array, as Ollama's runner reads them); only for a model loaded with a projector.
   */
  media?: Uint8Array[];
  /** Text after the insertion point: the prompt is framed with fill-in-the-middle tokens. */
  suffix?: string;
  /** A prompt longer than the window is truncated (default) or refused (false). */
  truncate?: boolean;
}

/** Why generation ended, in Ollama's terms. */
export type DoneReason = "stop" | "length";

/** What a finished generation reports. */
export interface CompletionResult {
  text: string;
  doneReason: DoneReason;
  promptTokens: number[];
  outputTokens: number[];
  /** Tokens evaluated for the prompt, the beginning-of-text token included. */
  promptEvalCount: number;
  /** Tokens generated (can exceed outputTokens when a partial stop match was held back). */
  evalCount: number;
  promptEvalNs: number;
  evalNs: number;
  /** True when the caller's signal stopped generation early. */
  aborted: boolean;
}

/** Embeddings of a batch of texts. */
export interface EmbeddingResult {
  vectors: number[][];
  promptTokens: number;
}

/** A model resident in memory with `sequences` slots. */
export interface LoadedModel {
  readonly spec: LoadSpec;
  /** Estimated bytes held (weights + KV cache). */
  readonly sizeBytes: number;
  /** The part of sizeBytes held in GPU memory (0 or undefined on the CPU). */
  readonly vramBytes?: number;
  /** Generates on slot `slot` (0 <= slot < sequences), streaming text pieces. */
  complete(
    slot: number,
    req: CompletionRequest,
    onText: (text: string) => void,
    signal: AbortSignal,
  ): Promise<CompletionResult>;
  /** Embeds texts; over-long inputs are cut when `truncate`, else rejected with 400. */
  embed(texts: string[], truncate: boolean, signal: AbortSignal): Promise<EmbeddingResult>;
  tokenize(text: string): Promise<number[]>;
  detokenize(tokens: readonly number[]): Promise<string>;
  unload(): Promise<void>;
  /**
   * Settles with the reason when the model leaves memory by itself (its runner process
   * died); the scheduler then forgets it, so the next request loads it again.
   */
  readonly lost?: Promise<Error>;
  /** Process id of the runner that holds the model, where it runs in one of its own. */
  readonly pid?: number;
}

/** Loads models. */
export interface ModelRuntime {
  /**
   * The backend its models run on (gpu-backend.ts), known once its native library is open;
   * a runtime without this method runs on the CPU.
   */
  backend?(): Promise<GpuBackend>;
  /** Loads a model; an aborted `signal` stops a load in progress and releases its memory. */
  load(spec: LoadSpec, signal?: AbortSignal): Promise<LoadedModel>;
  /** Releases the runtime itself (after every model is unloaded). */
  close(): Promise<void>;
}
