// Tests of the scheduler's GPU rules with an injected backend: loaded-model default, num_gpu reloads, memory.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ModelShape } from "../gguf/model-shape.js";
import { MediaType } from "../store/manifest.js";
import type { StoredModel } from "../store/stored-model.js";
import type { GpuBackend } from "./gpu-backend.js";
import type { LoadedModel, LoadSpec, ModelRuntime } from "./model-runner.js";
import { Scheduler, type SchedulerSettings, sameSpec } from "./scheduler.js";

const SHAPE: ModelShape = {
  blockCount: 3,
  embeddingLength: 64,
  headCount: 4,
  headCountKv: 4,
  keyLength: 16,
  valueLength: 16,
  vocabSize: 100,
};
const WEIGHTS = 1_000_000;

/** A stored model of WEIGHTS bytes (only what the scheduler reads). */
function model(name: string): StoredModel {
  return {
    display: `${name}:latest`,
    modelDigest: `sha256-${name}`,
    modelPath: `/models/${name}.gguf`,
    adapterPaths: [],
    manifest: { layers: [{ mediaType: MediaType.model, size: WEIGHTS, digest: name }] },
    facts: { shape: SHAPE },
  } as unknown as StoredModel;
}

/** A runtime on a given backend whose models report half their size in VRAM on a GPU. */
class FakeRuntime implements ModelRuntime {
  readonly loads: LoadSpec[] = [];
  unloads = 0;

  constructor(private readonly detected: GpuBackend | undefined) {}

  get backend(): (() => Promise<GpuBackend>) | undefined {
    const b = this.detected;
    return b === undefined ? undefined : async () => b;
  }

  async load(spec: LoadSpec): Promise<LoadedModel> {
    this.loads.push(spec);
    const onGpu = this.detected !== undefined && this.detected !== "cpu" && spec.gpuLayers !== 0;
    return {
      spec,
      sizeBytes: 1000,
      vramBytes: onGpu ? 500 : 0,
      complete: () => Promise.reject(new Error("unused")),
      embed: () => Promise.reject(new Error("unused")),
      tokenize: async () => [],
      detokenize: async () => "",
      unload: async () => {
        this.unloads++;
      },
    };
  }

  async close(): Promise<void> {}
}

function scheduler(runtime: ModelRuntime, settings: Partial<SchedulerSettings> = {}): Scheduler {
  return new Scheduler(runtime, {
    maxLoadedModels: undefined,
    numParallel: 1,
    maxQueue: 10,
    keepAliveMs: 60_000,
    flashAttention: false,
    kvCacheType: "f16",
    availableMemory: () => 2 ** 40,
    ...settings,
  });
}

/** Takes and releases a slot of `name`, as one request does. */
async function use(s: Scheduler, name: string, numGpu?: number): Promise<void> {
  const lease = await s.acquire({
    model: model(name),
    numCtx: 256,
    numThread: 1,
    ...(numGpu !== undefined && { numGpu }),
    keepAliveMs: undefined,
    signal: new AbortController().signal,
  });
  lease.release();
}

describe("scheduler on a GPU backend", () => {
  it("keeps one model loaded on the CPU and three with a GPU unless the setting says", async () => {
    const cases: Array<[GpuBackend | undefined, number | undefined, number]> = [
      [undefined, undefined, 1],
      ["cpu", undefined, 1],
      ["cuda", undefined, 3],
      ["vulkan", undefined, 3],
      ["cuda", 2, 2],
      ["cpu", 2, 2],
    ];
    for (const [backend, setting, expected] of cases) {
      const s = scheduler(new FakeRuntime(backend), { maxLoadedModels: setting });
      for (const name of ["a", "b", "c", "d"]) await use(s, name);
      assert.equal(s.status().length, expected, `${backend} with setting ${setting}`);
      assert.equal(s.maxLoadedModels, expected);
      await s.shutdown();
    }
  });

  it("passes num_gpu to the load on a GPU and leaves it out on the CPU", async () => {
    const gpu = new FakeRuntime("cuda");
    const s = scheduler(gpu);
    await use(s, "a", 2);
    assert.equal(gpu.loads[0]?.gpuLayers, 2);
    await s.shutdown();
    const cpu = new FakeRuntime("cpu");
    const c = scheduler(cpu);
    await use(c, "a", 2);
    await use(c, "a", 0);
    await use(c, "a");
    assert.equal(cpu.loads.length, 1, "num_gpu never reloads on the CPU");
    assert.equal(cpu.loads[0]?.gpuLayers, undefined);
    await c.shutdown();
  });

  it("reloads for a num_gpu other than the loaded one, never for -1 (unset)", async () => {
    const rt = new FakeRuntime("cuda");
    const s = scheduler(rt);
    const layers = () => rt.loads.map((l) => l.gpuLayers);
    await use(s, "a");
    await use(s, "a");
    assert.deepEqual(layers(), [undefined], "auto twice: one load");
    await use(s, "a", 2);
    assert.deepEqual(layers(), [undefined, 2], "a number after auto reloads");
    await use(s, "a");
    await use(s, "a", 2);
    assert.deepEqual(layers(), [undefined, 2], "auto and the same number keep the model");
    await use(s, "a", 0);
    assert.deepEqual(layers(), [undefined, 2, 0], "another number reloads");
    assert.equal(rt.unloads, 2);
    await s.shutdown();
  });

  it("reports the VRAM part of each loaded model in its status", async () => {
    const s = scheduler(new FakeRuntime("cuda"));
    await use(s, "a");
    assert.deepEqual(
      s.status().map((m) => [m.sizeBytes, m.vramBytes]),
      [[1000, 500]],
    );
    await use(s, "a", 0);
    assert.deepEqual(
      s.status().map((m) => [m.sizeBytes, m.vramBytes]),
      [[1000, 0]],
    );
    await s.shutdown();
  });

  it("checks system memory for the part not offloaded only", async () => {
    // Needs: compute buffers ~1.57 MB, weights 1 MB, KV cache ~0.2 MB; 1.8 MB are free.
    const tight = { availableMemory: () => 1_800_000 };
    const gpu = scheduler(new FakeRuntime("cuda"), tight);
    await use(gpu, "a");
    await assert.rejects(use(gpu, "b", 0), /model requires more system memory/);
    // 2 of 4 layers (3 blocks + output) offloaded: half the weights stay, more than is free.
    await assert.rejects(use(gpu, "c", 2), /model requires more system memory/);
    await use(gpu, "d", 4);
    await gpu.shutdown();
    const cpu = scheduler(new FakeRuntime("cpu"), tight);
    await assert.rejects(use(cpu, "a"), /model requires more system memory/);
    await cpu.shutdown();
  });

  it("caps a model's whole need with LLMSRV_MAX_MODEL_MEMORY, GPU or not", async () => {
    const s = scheduler(new FakeRuntime("cuda"), { maxModelMemory: 2_000_000 });
    await assert.rejects(use(s, "a"), /model requires more system memory/);
    await s.shutdown();
  });
});

describe("sameSpec", () => {
  const base: LoadSpec = {
    modelPath: "/m.gguf",
    contextSize: 256,
    sequences: 1,
    threads: 1,
    flashAttention: false,
    kvCacheType: "f16",
  };
  it("matches a request without num_gpu to any loaded layer count", () => {
    assert.ok(sameSpec({ ...base, gpuLayers: 7 }, base));
    assert.ok(sameSpec(base, base));
  });
  it("matches a num_gpu only to the same loaded number", () => {
    assert.ok(sameSpec({ ...base, gpuLayers: 7 }, { ...base, gpuLayers: 7 }));
    assert.ok(!sameSpec({ ...base, gpuLayers: 7 }, { ...base, gpuLayers: 0 }));
    assert.ok(!sameSpec(base, { ...base, gpuLayers: 7 }));
  });
});
