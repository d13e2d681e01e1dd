import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { resolveOptions } from "./options.js";

const DEFAULTS = { numCtx: 2048, numThread: 2, maxThreads: 2 };

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
    assert.equal(o.sampling.numPredict, undefined);
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
});
