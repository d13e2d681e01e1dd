// Tests of the memory estimate: weights, KV cache and compute buffers of the demo model.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ModelShape } from "../gguf/model-shape.js";
import {
  estimateMemory,
  formatBytes,
  hostMemoryNeed,
  insufficientMemory,
} from "./memory-estimate.js";

/** The demo model's dimensions (demo-model.ts). */
const DEMO: ModelShape = {
  blockCount: 1,
  embeddingLength: 2048,
  headCount: 16,
  headCountKv: 16,
  keyLength: 128,
  valueLength: 128,
  vocabSize: 7476,
};

const SPEC = {
  contextSize: 2048,
  sequences: 1,
  kvCacheType: "f16",
  flashAttention: false,
} as const;

describe("memory estimate of a load", () => {
  it("KV cache = n_ctx x n_layer x (n_embd_k_gqa + n_embd_v_gqa) x bytes per element", () => {
    const f16 = estimateMemory(DEMO, 1000, SPEC);
    assert.equal(f16.kvCache, 2048 * 1 * (2048 + 2048) * 2);
    const gqa = estimateMemory({ ...DEMO, blockCount: 32, headCountKv: 4 }, 0, {
      ...SPEC,
      sequences: 2,
      kvCacheType: "q8_0",
      flashAttention: true,
    });
    assert.equal(gqa.kvCache, 2 * 2048 * 32 * (512 + 512) * (34 / 32));
    const q4 = estimateMemory(DEMO, 0, { ...SPEC, kvCacheType: "q4_0", flashAttention: true });
    assert.equal(q4.kvCache, 2048 * 4096 * (18 / 32));
  });

  it("counts weights, KV cache and compute buffers in the total", () => {
    const e = estimateMemory(DEMO, 54_000_000, SPEC);
    assert.equal(e.weights, 54_000_000);
    // one batch of 512 f32 rows: 1 + 4 x 2048 + 2048 x (1 + 16) attention scores per token
    assert.equal(e.compute, 4 * 512 * (1 + 4 * 2048 + 2048 * 17));
    assert.equal(e.total, e.weights + e.kvCache + e.compute);
    const flash = estimateMemory(DEMO, 54_000_000, { ...SPEC, flashAttention: true });
    assert.ok(flash.compute < e.compute, "flash attention does not hold the score matrix");
  });

  it("makes num_ctx 999999999 need terabytes, and knows only the weights without a shape", () => {
    const huge = estimateMemory(DEMO, 54_000_000, { ...SPEC, contextSize: 999_999_999 });
    assert.ok(huge.total > 2 ** 40);
    assert.deepEqual(estimateMemory(undefined, 5, SPEC), {
      weights: 5,
      kvCache: 0,
      compute: 0,
      total: 5,
    });
  });

  it("words the refusal as Ollama does, sizes as Go's HumanBytes2", () => {
    assert.deepEqual(
      [
        formatBytes(512),
        formatBytes(1536),
        formatBytes(200 * 2 ** 20),
        formatBytes(1.75 * 2 ** 30),
      ],
      ["512 B", "1.5 KiB", "200.0 MiB", "1.8 GiB"],
    );
    assert.equal(
      insufficientMemory(21958.4 * 2 ** 30, 19.5 * 2 ** 30).message,
      "model requires more system memory (21958.4 GiB) than is available (19.5 GiB)",
    );
  });

  it("counts only the part left on the CPU in system memory when layers go to a GPU", () => {
    const need = { weights: 800, kvCache: 200, compute: 50, total: 1050 };
    assert.equal(hostMemoryNeed(need, 0, 3), 1050, "num_gpu 0: all of it");
    assert.equal(hostMemoryNeed(need, undefined, 3), 50, "all that fit: compute buffers");
    assert.equal(hostMemoryNeed(need, 1, 3), 800, "1 of 4 layers: three quarters + compute");
    assert.equal(hostMemoryNeed(need, 4, 3), 50, "every layer");
    assert.equal(hostMemoryNeed(need, 99, 3), 50, "more than there are");
    assert.equal(hostMemoryNeed(need, 2, undefined), 50, "unknown shape: compute buffers");
  });
});
