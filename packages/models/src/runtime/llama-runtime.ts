// The runtime of text models: loads them, tokenizes, generates and embeds.
import { stat } from "node:fs/promises";
import type { LlamaModel } from "node-llama-cpp";
import { LlmsrvError, messageOf } from "../errors.js";
import { AddonTextModel } from "./addon-text-model.js";
import type { BackendReport, GpuBackend, GpuMode } from "./gpu-backend.js";
import { type OpenedLlama, openLlama } from "./llama-backend.js";
import { LlamaLoadedModel } from "./llama-loaded-model.js";
import { llamaLogLine } from "./llama-log.js";
import { batchSizeFor, insufficientMemory, systemAvailableMemory } from "./memory-estimate.js";
import type { LoadedModel, LoadSpec, ModelRuntime } from "./model-runner.js";
import { loadMtmdAddon, type MtmdAddon } from "./mtmd/mtmd-addon.js";
import { TextEmbedder } from "./text-embedder.js";

/** Options of the text models' runtime. */
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
 * The runtime of text models: node-llama-cpp's prebuilt binaries only (never builds or
 * downloads), the CPU variant or a GPU one as LLMSRV_GPU picks (llama-backend.ts). On the CPU
 * a model generates on our addon (addon-text-model.ts; node-llama-cpp holds its vocabulary),
 * else on one LlamaModel + one LlamaContext with `sequences` slots.
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
        const threads = Math.max(1, Math.min(spec.threads, this.options.maxThreads));
        const native = await addon.loadModel({
          modelPath: spec.modelPath,
          gpuLayers: 0,
          useMmap: true,
          contextSize: spec.contextSize,
          sequences: spec.sequences,
          threads,
          batchSize: batchSizeFor(spec.contextSize),
          flashAttention: spec.flashAttention,
          kvCacheType: spec.kvCacheType,
          adapterPaths: spec.adapterPaths,
        });
        // Embeddings on a second context of the same weights, created on first use. Two
        // contexts whose threads together exceed the cores compute in turns.
        const computeInTurns = threads * 2 > this.options.maxThreads;
        const embedContext = () =>
          native.embeddingContext({ ...TextEmbedder.contextOptions(spec), computeInTurns });
        return new AddonTextModel(model, native, spec, embedContext);
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
   * node-llama-cpp (paced by decode-pacer.ts), with one warning.
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
