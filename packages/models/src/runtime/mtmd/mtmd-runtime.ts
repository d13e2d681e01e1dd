// The multimodal runtime: models with a projector, run by our mtmd addon (images and audio).
import { stat } from "node:fs/promises";
import { LlmsrvError, messageOf } from "../../errors.js";
import { ContextTurns } from "../context-turns.js";
import { GeneratedText } from "../generated-text.js";
import { batchSizeFor, insufficientMemory, systemAvailableMemory } from "../memory-estimate.js";
import type {
  CompletionRequest,
  CompletionResult,
  EmbeddingResult,
  LoadedModel,
  LoadSpec,
  ModelRuntime,
} from "../model-runner.js";
import { SlotStepper } from "../slot-stepper.js";
import { TokenTextDecoder } from "../token-text.js";
import { decodableMedia } from "./decodable-media.js";
import { placeMedia, withRequestIndex } from "./media-tags.js";
import { fitMediaPrompt } from "./media-window.js";
import {
  fromNative,
  isAborted,
  loadMtmdAddon,
  type MtmdVariant,
  type NativeModelInfo,
  type NativeMtmdModel,
} from "./mtmd-addon.js";
import { grammarFor, SCHEMA_GRAMMAR_END } from "./output-grammar.js";

/** Options of the multimodal runtime. */
export interface MtmdRuntimeOptions {
  /** Upper bound on threads any context may use (the physical core count). */
  maxThreads: number;
  /** Bytes of memory available for a new model; defaults to MemAvailable + free swap. */
  availableMemory?: () => number;
  /** Which of node-llama-cpp's prebuilt library builds to run on (default cpu). */
  variant?: MtmdVariant;
}

/**
 * Loads models with their projector through the native mtmd addon: one llama.cpp context per
 * model whose sequences are the scheduler's slots, images and audio evaluated by mtmd.
 */
export class MtmdRuntime implements ModelRuntime {
  constructor(private readonly options: MtmdRuntimeOptions) {}

  async load(spec: LoadSpec, signal?: AbortSignal): Promise<LoadedModel> {
    const fileSize = (await stat(spec.modelPath)).size;
    const projectorSize = spec.projectorPath ? (await stat(spec.projectorPath)).size : 0;
    const available = (this.options.availableMemory ?? systemAvailableMemory)();
    const needed = spec.memoryBytes ?? fileSize + projectorSize;
    if (needed > available) throw insufficientMemory(needed, available);
    const variant = this.options.variant ?? "cpu";
    const addon = loadMtmdAddon(variant);
    let native: NativeMtmdModel;
    try {
      native = await addon.loadModel({
        modelPath: spec.modelPath,
        projectorPath: spec.projectorPath,
        // The CPU build offloads nothing; a GPU build offloads all that fit unless told.
        gpuLayers: variant === "cpu" ? 0 : (spec.gpuLayers ?? -1),
        useMmap: true,
        contextSize: spec.contextSize,
        sequences: spec.sequences,
        threads: Math.max(1, Math.min(spec.threads, this.options.maxThreads)),
        batchSize: batchSizeFor(spec.contextSize),
        flashAttention: spec.flashAttention,
        kvCacheType: spec.kvCacheType,
      });
    } catch (e) {
      const msg = messageOf(e);
      const code = /memory|alloc/i.test(msg) ? "insufficient_memory" : "model_load_failed";
      throw new LlmsrvError(code, `failed to load model: ${msg}`, { cause: e });
    }
    if (signal?.aborted) {
      await native.dispose();
      throw new LlmsrvError("request_canceled", "request canceled");
    }
    return new MtmdLoadedModel(native, spec, projectorSize);
  }

  async close(): Promise<void> {}
}

/** A model with its projector in memory. */
export class MtmdLoadedModel implements LoadedModel {
  readonly sizeBytes: number;
  readonly vramBytes: number;
  /** What the addon reports: vision and audio support, vocabulary, context size. */
  readonly info: NativeModelInfo;
  /** The slots generating at once are decoded together, one token each per step. */
  private readonly turns = new ContextTurns();
  private readonly stepper: SlotStepper;

  constructor(
    /** The addon's model (tests read logits through it). */
    readonly native: NativeMtmdModel,
    readonly spec: LoadSpec,
    projectorSize: number,
  ) {
    this.info = native.info();
    this.sizeBytes = this.info.modelBytes + this.info.stateBytes + projectorSize;
    this.vramBytes = this.info.vramBytes;
    this.stepper = new SlotStepper(native, this.turns);
  }

  async tokenize(text: string): Promise<number[]> {
    return [...this.native.tokenize(text)];
  }

  async detokenize(tokens: readonly number[]): Promise<string> {
    try {
      return this.native.detokenize(Int32Array.from(tokens)).toString("utf8");
    } catch (e) {
      throw fromNative(e, "detokenize");
    }
  }

  async embed(
    _texts: string[],
    _truncate: boolean,
    _signal: AbortSignal,
  ): Promise<EmbeddingResult> {
    throw new LlmsrvError(
      "unsupported_capability",
      "this model has a projector: embeddings are not supported for it",
    );
  }

  async complete(
    slot: number,
    req: CompletionRequest,
    onText: (text: string) => void,
    signal: AbortSignal,
  ): Promise<CompletionResult> {
    if (slot < 0 || slot >= this.spec.sequences) {
      throw new LlmsrvError("internal", `no sequence slot ${slot}`);
    }
    if (req.suffix !== undefined) {
      throw new LlmsrvError("bad_request", "suffix is not supported for a model with a projector");
    }
    const started = process.hrtime.bigint();
    const placed = placeMedia(req.prompt, req.media ?? [], this.info.marker);
    const grammar = await grammarFor(req.format);
    // Media errors name the request's own image numbers, not their order in the prompt.
    const inRequestTerms = (e: unknown): never => {
      const err = fromNative(e, "preparing the prompt");
      if (err.code !== "bad_request") throw err;
      throw new LlmsrvError("bad_request", withRequestIndex(err.message, placed.indexes), {
        cause: e,
      });
    };
    const media = await decodableMedia(placed.media).catch(inRequestTerms);
    const chunks = await this.native.prepare(slot, placed.text, media).catch(inRequestTerms);
    const vocab = this.info.vocabularySize;
    const bad = req.prefixTokens?.find((t) => !Number.isInteger(t) || t < 0 || t >= vocab);
    if (bad !== undefined) {
      throw new LlmsrvError(
        "bad_request",
        `context holds token ${bad}, outside the vocabulary (0-${vocab - 1})`,
      );
    }
    const fitted = fitMediaPrompt(req.prefixTokens ?? [], chunks, this.info.bos, {
      contextSize: this.spec.contextSize,
      addsBos: this.info.bos >= 0,
      numKeep: req.sampling.numKeep,
      numPredict: req.sampling.numPredict,
      truncate: req.truncate ?? true,
    });
    const room = this.spec.contextSize - fitted.total;
    const maxTokens = Math.min(req.sampling.numPredict ?? room, room);
    const stops = [...req.sampling.stop];
    if (req.format?.kind === "schema") stops.push(SCHEMA_GRAMMAR_END);
    const decoder = new TokenTextDecoder(
      (tokens, context) =>
        this.native.detokenize(Int32Array.from(tokens), Int32Array.from(context)).toString("utf8"),
      fitted.textTokens.length > 0 || this.info.bos < 0 ? fitted.textTokens : [this.info.bos],
    );
    const gen = new GeneratedText(decoder, stops, onText);
    const onAbort = () => this.native.abort(slot);
    signal.addEventListener("abort", onAbort, { once: true });
    let reason: "stop" | "length" = "stop";
    let aborted = signal.aborted;
    let evaluated = fitted.total;
    try {
      if (!aborted) {
        evaluated = await this.turns.run(() => this.native.evaluate(slot, fitted.items));
        if (signal.aborted) this.native.abort(slot);
        this.native.configureSampler(
          slot,
          { ...req.sampling, grammar },
          Int32Array.from(fitted.textTokens),
        );
        reason = await this.stepper.generate(slot, {
          maxTokens,
          isEnd: (token) => this.native.isEndOfGeneration(token),
          take: (token) => gen.add([token]),
          signal,
        });
      }
    } catch (e) {
      if (!isAborted(e)) throw fromNative(e, "generation failed");
    } finally {
      signal.removeEventListener("abort", onAbort);
      aborted = signal.aborted;
    }
    gen.finish();
    const end = process.hrtime.bigint();
    const firstToken = gen.firstTokenAt ?? end;
    return {
      text: gen.text,
      doneReason: reason,
      promptTokens: fitted.textTokens,
      outputTokens: gen.tokens,
      promptEvalCount: evaluated,
      evalCount: gen.tokens.length,
      promptEvalNs: Number(firstToken - started),
      evalNs: Number(end - firstToken),
      aborted,
    };
  }

  async unload(): Promise<void> {
    for (let seq = 0; seq < this.spec.sequences; seq++) this.native.abort(seq);
    await this.native.dispose();
  }
}
