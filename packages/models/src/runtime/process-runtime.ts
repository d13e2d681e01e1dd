// The process runtime: each loaded model in its own runner process.
import { requestCanceled } from "../errors.js";
import type { BackendReport, GpuBackend } from "./gpu-backend.js";
import { insufficientMemory, systemAvailableMemory } from "./memory-estimate.js";
import type {
  CompletionRequest,
  CompletionResult,
  EmbeddingResult,
  LoadedModel,
  LoadSpec,
  ModelRuntime,
} from "./model-runner.js";
import { type LoadedSizes, type RunnerOptions, RunnerProcess } from "./runner-client.js";

/** Options of the process runtime: those of its runners, and the memory check. */
export interface ProcessRuntimeOptions extends RunnerOptions {
  /** Bytes of memory available for a new model; defaults to MemAvailable + free swap. */
  availableMemory?: () => number;
  /** Told the process id of the runner that starts loading a model (logs, tests). */
  onLoadStart?: (pid: number | undefined) => void;
  /** Told, once, what the first runner's native library runs on (the server logs it). */
  onBackend?: (report: BackendReport) => void;
}

/**
 * Inputs embedded per call to the runner: a request's inputs are sent, embedded and
 * answered a batch at a time, and a canceled request stops between batches.
 */
export const EMBED_BATCH = 16;

/**
 * Runs each loaded model in a runner process of its own (`runner-process.ts`), so that a
 * native abort in llama.cpp, or a long synchronous tokenization, stays in that process.
 */
export class ProcessRuntime implements ModelRuntime {
  private readonly runners = new Set<RunnerProcess>();
  /** A started runner waiting for the next load (started after the first load). */
  private spare: RunnerProcess | undefined;
  private closed = false;
  private detected: Promise<GpuBackend> | undefined;

  constructor(private readonly options: ProcessRuntimeOptions) {}

  private start(): RunnerProcess {
    const runner = new RunnerProcess(this.options);
    this.runners.add(runner);
    void runner.exited.then(() => this.runners.delete(runner));
    return runner;
  }

  private takeRunner(): RunnerProcess {
    const spare = this.spare;
    this.spare = undefined;
    return spare && !spare.hasEnded ? spare : this.start();
  }

  /**
   * The backend runners load (LLMSRV_GPU's choice as node-llama-cpp resolved it), asked of
   * a runner started now as the spare, which the next load then uses: the first load waits
   * for no more than it would have anyway. A runner that cannot open its library counts as
   * the CPU (its loads fail with the reason, which `onBackend` is told).
   */
  backend(): Promise<GpuBackend> {
    this.detected ??= this.detect();
    return this.detected;
  }

  private async detect(): Promise<GpuBackend> {
    if (this.closed) return "cpu";
    const runner = this.takeRunner();
    this.spare = runner;
    const report = await runner.backend;
    this.options.onBackend?.(report);
    return "error" in report ? "cpu" : report.backend;
  }

  async load(spec: LoadSpec, signal?: AbortSignal): Promise<LoadedModel> {
    const available = (this.options.availableMemory ?? systemAvailableMemory)();
    // Measured after the scheduler evicted what it had to; no runner is touched when it fails.
    if (spec.memoryBytes !== undefined && spec.memoryBytes > available)
      throw insufficientMemory(spec.memoryBytes, available);
    if (signal?.aborted) throw requestCanceled();
    const runner = this.takeRunner();
    // A canceled load ends its runner: whatever llama.cpp allocated goes with the process.
    const onAbort = () => void runner.kill();
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      this.options.onLoadStart?.(runner.pid);
      const sizes = await runner.load(spec, available);
      if (signal?.aborted) throw requestCanceled();
      return new ProcessLoadedModel(runner, spec, sizes);
    } catch (e) {
      await runner.kill();
      throw signal?.aborted ? requestCanceled() : e;
    } finally {
      signal?.removeEventListener("abort", onAbort);
      // Started after this load, so that the two do not compete for the CPU.
      if (!this.closed) this.spare ??= this.start();
    }
  }

  /** Kills every runner still alive (each loaded model has normally been unloaded before). */
  async close(): Promise<void> {
    this.closed = true;
    this.spare = undefined;
    await Promise.all([...this.runners].map((r) => r.kill()));
  }
}

/** A model held by a runner process; every call crosses the IPC channel. */
class ProcessLoadedModel implements LoadedModel {
  readonly sizeBytes: number;
  readonly vramBytes: number;

  constructor(
    private readonly runner: RunnerProcess,
    readonly spec: LoadSpec,
    sizes: LoadedSizes,
  ) {
    this.sizeBytes = sizes.sizeBytes;
    this.vramBytes = sizes.vramBytes;
  }

  get lost(): Promise<Error> {
    return this.runner.lost;
  }

  get pid(): number | undefined {
    return this.runner.pid;
  }

  async complete(
    slot: number,
    req: CompletionRequest,
    onText: (text: string) => void,
    signal: AbortSignal,
  ): Promise<CompletionResult> {
    const { id, result } = this.runner.call<CompletionResult>(
      (callId) => ({ type: "complete", id: callId, slot, req }),
      onText,
    );
    const onAbort = () => this.runner.abort(id);
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
    try {
      return await result;
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
  }

  async embed(texts: string[], truncate: boolean, signal: AbortSignal): Promise<EmbeddingResult> {
    const vectors: number[][] = [];
    let promptTokens = 0;
    for (let start = 0; start < texts.length; start += EMBED_BATCH) {
      if (signal.aborted) throw requestCanceled();
      const batch = texts.slice(start, start + EMBED_BATCH);
      const { id, result } = this.runner.call<EmbeddingResult>((callId) => ({
        type: "embed",
        id: callId,
        texts: batch,
        truncate,
      }));
      const onAbort = () => this.runner.abort(id);
      signal.addEventListener("abort", onAbort, { once: true });
      try {
        const r = await result;
        for (const v of r.vectors) vectors.push(v);
        promptTokens += r.promptTokens;
      } finally {
        signal.removeEventListener("abort", onAbort);
      }
    }
    return { vectors, promptTokens };
  }

  tokenize(text: string): Promise<number[]> {
    return this.runner.call<number[]>((id) => ({ type: "tokenize", id, text })).result;
  }

  detokenize(tokens: readonly number[]): Promise<string> {
    return this.runner.call<string>((id) => ({ type: "detokenize", id, tokens: [...tokens] }))
      .result;
  }

  unload(): Promise<void> {
    return this.runner.stop();
  }
}
