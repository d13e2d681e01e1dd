// The scheduler: loads, shares, queues and unloads models by keep-alive and memory.
import { AsyncLock, waitOrAbort } from "../async-lock.js";
import { LlmsrvError, requestCanceled, serverBusy } from "../errors.js";
import { MediaType } from "../store/manifest.js";
import type { StoredModel } from "../store/stored-model.js";
import { defaultMaxLoadedModels, type GpuBackend, isGpuBackend } from "./gpu-backend.js";
import {
  estimateMemory,
  hostMemoryNeed,
  insufficientMemory,
  systemAvailableMemory,
} from "./memory-estimate.js";
import { ModelInstance, type Waiter } from "./model-instance.js";
import type { LoadedModel, LoadSpec, ModelRuntime } from "./model-runner.js";

/** Scheduler settings, from the server configuration. */
export interface SchedulerSettings {
  /** Undefined: the spec's default for the runtime's backend (1 on the CPU, 3 with a GPU). */
  maxLoadedModels: number | undefined;
  numParallel: number;
  maxQueue: number;
  keepAliveMs: number;
  flashAttention: boolean;
  kvCacheType: LoadSpec["kvCacheType"];
  /** Most bytes one model may need (LLMSRV_MAX_MODEL_MEMORY); undefined = no cap. */
  maxModelMemory?: number;
  /** Memory free for models now; defaults to MemAvailable + free swap. */
  availableMemory?: () => number;
}

/** What a request asks of the scheduler. */
export interface SlotRequest {
  model: StoredModel;
  numCtx: number;
  numThread: number;
  /** num_gpu: layers on the GPU; undefined = all that fit, and never a reason to reload. */
  numGpu?: number;
  /** The request's keep_alive in ms (Infinity = forever); undefined keeps the current one. */
  keepAliveMs: number | undefined;
  signal: AbortSignal;
}

/** A held slot on a loaded model; `release` must be called exactly once. */
export interface Lease {
  loaded: LoadedModel;
  slot: number;
  /** Nanoseconds spent waiting for the model and a slot. */
  loadNs: number;
  release(): void;
}

/** A loaded model as `/api/ps` shows it. */
export interface LoadedModelStatus {
  model: StoredModel;
  sizeBytes: number;
  /** The part of sizeBytes in GPU memory (`size_vram`). */
  vramBytes: number;
  expiresAt: Date;
  contextLength: number;
  active: number;
  queued: number;
  /** Process id of the model's runner, where it runs in a process of its own. */
  runnerPid: number | undefined;
}

/** Why a model left memory. */
export type UnloadReason = "keep_alive" | "evicted" | "reload" | "stopped" | "shutdown" | "crashed";

/** What the scheduler reports to whoever runs it (the server logs these). */
export type SchedulerEvent =
  | { type: "loaded"; model: string; ms: number; contextSize: number; sequences: number }
  | { type: "unloaded"; model: string; reason: UnloadReason; error?: string };

/**
 * Owns loading and unloading. Every request waiting for a slot (for a model being loaded
 * or one already loaded) counts against `maxQueue`; past it, requests get 503 at once.
 * Idle models unload when their keep-alive expires; the least recently used idle model is
 * evicted when `maxLoadedModels` is reached.
 */
export class Scheduler {
  private readonly instances = new Map<string, ModelInstance>();
  private readonly pendingByModel = new Map<string, number>();
  private pending = 0;
  private readonly loadLock = new AsyncLock();
  /** The runtime's backend once known (asked for at the first request). */
  private backend: GpuBackend | undefined;
  private backendAsked: Promise<GpuBackend> | undefined;

  constructor(
    private readonly runtime: ModelRuntime,
    private readonly settings: SchedulerSettings,
    private readonly onEvent: (e: SchedulerEvent) => void = () => {},
  ) {}

  /** Requests currently waiting for a slot, across all models. */
  get pendingCount(): number {
    return this.pending;
  }

  /** The backend loads run on: the CPU for a runtime that does not say. */
  private backendNow(): GpuBackend | Promise<GpuBackend> {
    if (this.backend) return this.backend;
    const ask = this.runtime.backend?.bind(this.runtime);
    if (!ask) {
      this.backend = "cpu";
      return this.backend;
    }
    this.backendAsked ??= ask().then(
      (b) => {
        this.backend = b;
        return b;
      },
      () => {
        this.backend = "cpu";
        return this.backend;
      },
    );
    return this.backendAsked;
  }

  /** Most models loaded at once: the setting, else the default for the backend. */
  get maxLoadedModels(): number {
    return this.settings.maxLoadedModels ?? defaultMaxLoadedModels(this.backend ?? "cpu");
  }

  /** Waits for a slot on the requested model, loading it (and evicting) as needed. */
  async acquire(req: SlotRequest): Promise<Lease> {
    const started = process.hrtime.bigint();
    const key = req.model.modelDigest;
    // Known after the first request: the runtime's first runner says it once its library
    // is open, and that runner then serves the load, so nothing waits longer than before.
    const backend = this.backend ?? (await this.backendNow());
    const { spec, totalBytes } = this.specFor(req, backend);
    const ready = this.instances.get(key);
    if (
      ready &&
      sameSpec(ready.loaded.spec, spec) &&
      ready.freeSlots.length > 0 &&
      ready.waiters.length === 0
    ) {
      return this.lease(ready, this.takeSlot(ready, req), started);
    }
    if (!ready || !sameSpec(ready.loaded.spec, spec)) this.checkMemory(spec, totalBytes);
    if (this.pending >= this.settings.maxQueue) throw serverBusy();
    this.pending++;
    this.pendingByModel.set(key, (this.pendingByModel.get(key) ?? 0) + 1);
    try {
      const inst = await this.ensureLoaded(req, spec);
      const slot = await this.waitForSlot(inst, req);
      return this.lease(inst, slot, started);
    } catch (e) {
      if (req.signal.aborted) throw requestCanceled();
      throw e;
    } finally {
      this.pending--;
      const left = (this.pendingByModel.get(key) ?? 1) - 1;
      if (left > 0) this.pendingByModel.set(key, left);
      else this.pendingByModel.delete(key);
    }
  }

  private specFor(req: SlotRequest, backend: GpuBackend): { spec: LoadSpec; totalBytes: number } {
    const spec: LoadSpec = {
      modelPath: req.model.modelPath,
      adapterPaths: req.model.adapterPaths,
      projectorPath: req.model.projectorPath,
      contextSize: req.numCtx,
      sequences: this.settings.numParallel,
      threads: req.numThread,
      flashAttention: this.settings.flashAttention,
      kvCacheType: this.settings.kvCacheType,
    };
    // The adapters' and projector's weights are read into memory alongside the model's.
    const held: string[] = [MediaType.model, MediaType.adapter, MediaType.projector];
    const weights = req.model.manifest.layers
      .filter((l) => held.includes(l.mediaType))
      .reduce((sum, l) => sum + l.size, 0);
    const shape = req.model.facts.shape;
    const need = estimateMemory(shape, weights, spec);
    spec.memoryBytes = need.total;
    // On the CPU num_gpu means nothing: left out, it never forces a reload there.
    if (isGpuBackend(backend)) {
      if (req.numGpu !== undefined) spec.gpuLayers = req.numGpu;
      spec.memoryBytes = hostMemoryNeed(need, spec.gpuLayers, shape?.blockCount);
    }
    return { spec, totalBytes: need.total };
  }

  /**
   * Refuses at once, before anything is queued, evicted or loaded, a load that cannot fit:
   * a need (`totalBytes`) over LLMSRV_MAX_MODEL_MEMORY, or a system-memory need (the spec's
   * memoryBytes: all of it on the CPU, the part not offloaded with a GPU) over the memory
   * available plus what unloading every loaded model would free. The runtime checks again
   * after evicting.
   */
  private checkMemory(spec: LoadSpec, totalBytes: number): void {
    const needed = spec.memoryBytes ?? 0;
    const freeable = [...this.instances.values()].reduce(
      (a, i) => a + i.loaded.sizeBytes - (i.loaded.vramBytes ?? 0),
      0,
    );
    const available = (this.settings.availableMemory ?? systemAvailableMemory)() + freeable;
    const cap = this.settings.maxModelMemory ?? Number.POSITIVE_INFINITY;
    if (needed === totalBytes) {
      const limit = Math.min(available, cap);
      if (needed > limit) throw insufficientMemory(needed, limit);
      return;
    }
    if (totalBytes > cap) throw insufficientMemory(totalBytes, cap);
    if (needed > available) throw insufficientMemory(needed, available);
  }

  private takeSlot(inst: ModelInstance, req: SlotRequest): number {
    const slot = inst.freeSlots.pop();
    if (slot === undefined) throw new LlmsrvError("internal", "no free slot");
    this.markUsed(inst, req.keepAliveMs);
    return slot;
  }

  private markUsed(inst: ModelInstance, keepAliveMs: number | undefined): void {
    if (keepAliveMs !== undefined) inst.keepAliveMs = keepAliveMs;
    clearTimeout(inst.timer);
    inst.timer = undefined;
    inst.active++;
    inst.lastUsed = Date.now();
  }

  private lease(inst: ModelInstance, slot: number, started: bigint): Lease {
    let released = false;
    return {
      loaded: inst.loaded,
      slot,
      loadNs: Number(process.hrtime.bigint() - started),
      release: () => {
        if (released) return;
        released = true;
        this.releaseSlot(inst, slot);
      },
    };
  }

  private waitForSlot(inst: ModelInstance, req: SlotRequest): Promise<number> {
    if (inst.freeSlots.length > 0 && inst.waiters.length === 0) {
      return Promise.resolve(this.takeSlot(inst, req));
    }
    return new Promise<number>((resolve, reject) => {
      const waiter: Waiter = {
        resolve: (slot) => {
          req.signal.removeEventListener("abort", onAbort);
          this.markUsed(inst, req.keepAliveMs);
          resolve(slot);
        },
        reject,
      };
      const onAbort = () => {
        const i = inst.waiters.indexOf(waiter);
        if (i >= 0) inst.waiters.splice(i, 1);
        reject(requestCanceled());
        if (inst.idle) this.onIdle(inst);
      };
      if (req.signal.aborted) {
        if (inst.idle) this.onIdle(inst);
        return reject(requestCanceled());
      }
      req.signal.addEventListener("abort", onAbort, { once: true });
      inst.waiters.push(waiter);
    });
  }

  private releaseSlot(inst: ModelInstance, slot: number): void {
    inst.active--;
    inst.lastUsed = Date.now();
    const next = inst.waiters.shift();
    if (next) {
      next.resolve(slot);
      return;
    }
    inst.returnSlot(slot);
    if (inst.active === 0) this.onIdle(inst);
  }

  private onIdle(inst: ModelInstance): void {
    inst.notifyIdle();
    clearTimeout(inst.timer);
    inst.timer = undefined;
    if (this.instances.get(inst.model.modelDigest) !== inst) return;
    if (inst.keepAliveMs === 0) {
      void this.unloadInstance(inst, "keep_alive");
    } else if (Number.isFinite(inst.keepAliveMs)) {
      inst.timer = setTimeout(() => void this.unloadInstance(inst, "keep_alive"), inst.keepAliveMs);
      inst.timer.unref();
    }
  }

  private async ensureLoaded(req: SlotRequest, spec: LoadSpec): Promise<ModelInstance> {
    return this.loadLock.run(async () => {
      const key = req.model.modelDigest;
      const existing = this.instances.get(key);
      if (existing && sameSpec(existing.loaded.spec, spec)) return existing;
      if (existing) {
        await waitOrAbort(existing.whenIdle(), req.signal);
        await this.unloadInstance(existing, "reload");
      }
      while (this.instances.size >= this.maxLoadedModels) {
        const victim = this.lruIdle();
        if (victim) await this.unloadInstance(victim, "evicted");
        else
          await waitOrAbort(
            Promise.race([...this.instances.values()].map((i) => i.whenIdle())),
            req.signal,
          );
      }
      if (req.signal.aborted) throw requestCanceled();
      const loadStart = Date.now();
      const loaded = await this.runtime.load(spec, req.signal);
      this.onEvent({
        type: "loaded",
        model: req.model.display,
        ms: Date.now() - loadStart,
        contextSize: spec.contextSize,
        sequences: spec.sequences,
      });
      const inst = new ModelInstance(
        req.model,
        loaded,
        req.keepAliveMs ?? this.settings.keepAliveMs,
      );
      this.instances.set(key, inst);
      void loaded.lost?.then((e) => this.forgetLost(inst, e));
      return inst;
    }, req.signal);
  }

  private lruIdle(): ModelInstance | undefined {
    return [...this.instances.values()]
      .filter((i) => i.idle)
      .sort((a, b) => a.lastUsed - b.lastUsed)[0];
  }

  private async unloadInstance(inst: ModelInstance, reason: UnloadReason): Promise<void> {
    if (this.instances.get(inst.model.modelDigest) !== inst) return;
    this.instances.delete(inst.model.modelDigest);
    clearTimeout(inst.timer);
    await inst.loaded.unload().catch(() => {});
    this.onEvent({ type: "unloaded", model: inst.model.display, reason });
  }

  /**
   * Forgets a model whose runner died: its requests in flight have failed already, those
   * waiting for a slot fail with the same reason, and the next request loads it again.
   */
  private forgetLost(inst: ModelInstance, error: Error): void {
    if (this.instances.get(inst.model.modelDigest) !== inst) return;
    this.instances.delete(inst.model.modelDigest);
    clearTimeout(inst.timer);
    for (const w of inst.waiters.splice(0)) w.reject(error);
    this.onEvent({
      type: "unloaded",
      model: inst.model.display,
      reason: "crashed",
      error: error.message,
    });
  }

  /**
   * Sets a model's keep-alive to 0: unloaded now when idle, else when its requests finish.
   * Returns false when the model was not loaded.
   */
  async stop(model: StoredModel): Promise<boolean> {
    const inst = this.instances.get(model.modelDigest);
    if (!inst) return false;
    inst.keepAliveMs = 0;
    if (inst.idle) await this.unloadInstance(inst, "stopped");
    return true;
  }

  /** True when the model is resident. */
  isLoaded(model: StoredModel): boolean {
    return this.instances.has(model.modelDigest);
  }

  /** Loaded models, longest remaining keep-alive first, with their queue and active counts. */
  status(): LoadedModelStatus[] {
    return [...this.instances.values()]
      .map((i) => ({
        model: i.model,
        sizeBytes: i.loaded.sizeBytes,
        vramBytes: i.loaded.vramBytes ?? 0,
        expiresAt: i.expiresAt(),
        contextLength: i.loaded.spec.contextSize,
        active: i.active,
        queued: this.pendingByModel.get(i.model.modelDigest) ?? 0,
        runnerPid: i.loaded.pid,
      }))
      .sort((a, b) => b.expiresAt.getTime() - a.expiresAt.getTime());
  }

  /** Unloads everything and releases the runtime. */
  async shutdown(): Promise<void> {
    for (const inst of [...this.instances.values()]) {
      for (const w of inst.waiters.splice(0)) w.reject(requestCanceled());
      await this.unloadInstance(inst, "shutdown");
    }
    await this.runtime.close();
  }
}

/**
 * True when a loaded model (`a`) serves a request's spec (`b`) as it is. A request that
 * leaves num_gpu to the server (undefined) takes the model with whatever layers it has, as
 * Ollama's num_gpu -1 does; a number other than the loaded one reloads.
 */
export function sameSpec(a: LoadSpec, b: LoadSpec): boolean {
  return (
    (b.gpuLayers === undefined || a.gpuLayers === b.gpuLayers) &&
    a.modelPath === b.modelPath &&
    (a.adapterPaths ?? []).join("\n") === (b.adapterPaths ?? []).join("\n") &&
    a.projectorPath === b.projectorPath &&
    a.contextSize === b.contextSize &&
    a.sequences === b.sequences &&
    a.threads === b.threads &&
    a.flashAttention === b.flashAttention &&
    a.kvCacheType === b.kvCacheType
  );
}
