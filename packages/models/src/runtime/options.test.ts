// Tests of request options: types, bounds and defaults.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { resolveOptions } from "./options.js";

const DEFAULTS = {
  numCtx: 2048,
  numThread: 2,
  maxThreads: 2,
  maxNumCtx: 8192,
  maxNumBatch: 1024,
  maxNumPredict: 4096,
};

describe("request options", () => {
  it("applies the spec's defaults", () => {
    const o = resolveOptions({}, undefined, DEFAULTS);
    assert.deepEqual(
      [
        o.sampling.temperature,
        o.sampling.topK,
        o.sampling.topP,
        o.numCtx,
        o.numThread,
        o.requestedSeed,
      ],
      [0.8, 40, 0.9, 2048, 2, 0],
    );
    assert.ok(o.sampling.seed > 0, "seed 0 draws a random seed");
    assert.equal(o.sampling.numPredict, 4096, "unbounded stops at LLMSRV_MAX_NUM_PREDICT");
  });

  it("maps num_gpu: unset or negative = all that fit, 0 = CPU, n = n layers; non-integers are 400", () => {
    const numGpu = (options: unknown) => resolveOptions({}, options, DEFAULTS).numGpu;
    assert.deepEqual(
      [undefined, { num_gpu: -1 }, { num_gpu: -5 }, { num_gpu: 0 }, { num_gpu: 12 }].map(numGpu),
      [undefined, undefined, undefined, 0, 12],
    );
    assert.equal(numGpu({ num_gpu: 2.7 }), 2, "truncated as other integer options");
    for (const bad of ["all", true, [1]])
      assert.throws(
        () => numGpu({ num_gpu: bad }),
        /option "num_gpu" must be of type integer/,
        JSON.stringify(bad),
      );
  });

  it("layers model parameters under request options", () => {
    const o = resolveOptions(
      { temperature: 0.1, stop: ["a"], top_k: 5 },
      { temperature: 0.7, seed: 42, num_predict: 9 },
      DEFAULTS,
    );
    assert.deepEqual(
      [
        o.sampling.temperature,
        o.sampling.topK,
        o.sampling.seed,
        o.sampling.numPredict,
        o.sampling.stop,
      ],
      [0.7, 5, 42, 9, ["a"]],
    );
  });

  it("ignores unknown options and truncates integer options", () => {
    const o = resolveOptions({}, { mirostat: 2, top_k: 7.9 }, DEFAULTS);
    assert.equal(o.sampling.topK, 7);
  });

  it("rejects wrong types and out-of-range values by name", () => {
    assert.throws(
      () => resolveOptions({}, { seed: "x" }, DEFAULTS),
      /option "seed" must be of type integer/,
    );
    assert.throws(
      () => resolveOptions({}, { temperature: -1 }, DEFAULTS),
      /option "temperature" must be >= 0/,
    );
    assert.throws(() => resolveOptions({}, { num_thread: 3 }, DEFAULTS), /physical core count 2/);
    assert.throws(() => resolveOptions({}, "fast", DEFAULTS), /options must be a JSON object/);
  });

  it("refuses num_ctx, num_batch and num_predict over their configured caps, naming the variable", () => {
    assert.throws(
      () => resolveOptions({}, { num_ctx: 999999999 }, DEFAULTS),
      /^LlmsrvError: option "num_ctx" must not exceed 8192 \(LLMSRV_MAX_NUM_CTX\), got 999999999$/,
    );
    assert.throws(
      () => resolveOptions({}, { num_batch: 1025 }, DEFAULTS),
      /option "num_batch" must not exceed 1024 \(LLMSRV_MAX_NUM_BATCH\), got 1025/,
    );
    assert.throws(
      () => resolveOptions({ num_predict: 5000 }, undefined, DEFAULTS),
      /option "num_predict" must not exceed 4096 \(LLMSRV_MAX_NUM_PREDICT\), got 5000/,
    );
    assert.throws(() => resolveOptions({}, { num_batch: 0 }, DEFAULTS), /"num_batch" must be >= 1/);
    const atCaps = resolveOptions(
      {},
      { num_ctx: 8192, num_batch: 1024, num_predict: 4096 },
      DEFAULTS,
    );
    assert.deepEqual([atCaps.numCtx, atCaps.sampling.numPredict], [8192, 4096]);
    assert.equal(resolveOptions({}, { num_predict: -1 }, DEFAULTS).sampling.numPredict, 4096);
  });
});
