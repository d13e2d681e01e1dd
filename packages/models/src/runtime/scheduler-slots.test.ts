// Which slot the scheduler hands out: the lowest free one, so the slots in use stay contiguous.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { StoredModel } from "../store/stored-model.js";
import type { LoadedModel, LoadSpec, ModelRuntime } from "./model-runner.js";
import { type Lease, Scheduler } from "./scheduler.js";

/** A stored model (only what the scheduler reads; no shape, so no memory estimate). */
const MODEL = {
  display: "m:latest",
  modelDigest: "sha256-m",
  modelPath: "/models/m.gguf",
  adapterPaths: [],
  manifest: { layers: [] },
  facts: {},
} as unknown as StoredModel;

/** A runtime whose models do nothing: only slots are exercised. */
const runtime: ModelRuntime = {
  async load(spec: LoadSpec): Promise<LoadedModel> {
    return {
      spec,
      sizeBytes: 1000,
      vramBytes: 0,
      complete: () => Promise.reject(new Error("unused")),
      embed: () => Promise.reject(new Error("unused")),
      tokenize: async () => [],
      detokenize: async () => "",
      unload: async () => {},
    };
  },
  async close(): Promise<void> {},
};

function acquire(s: Scheduler): Promise<Lease> {
  return s.acquire({
    model: MODEL,
    numCtx: 256,
    numThread: 1,
    keepAliveMs: undefined,
    signal: new AbortController().signal,
  });
}

describe("scheduler slots", () => {
  it("hands out the lowest free slot, whatever order slots were released in", async () => {
    const s = new Scheduler(runtime, {
      maxLoadedModels: 1,
      numParallel: 4,
      maxQueue: 10,
      keepAliveMs: 60_000,
      flashAttention: false,
      kvCacheType: "f16",
      availableMemory: () => 2 ** 40,
    });
    const leases = [await acquire(s), await acquire(s), await acquire(s), await acquire(s)];
    assert.deepEqual(
      leases.map((l) => l.slot),
      [0, 1, 2, 3],
    );
    leases[1]?.release();
    leases[3]?.release();
    leases[2]?.release();
    const next = [await acquire(s), await acquire(s)];
    assert.deepEqual(
      next.map((l) => l.slot),
      [1, 2],
    );
    for (const l of [leases[0], ...next]) l?.release();
    await s.shutdown();
  });
});
