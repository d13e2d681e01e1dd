// Tests of prompt truncation: num_keep tokens kept, the middle dropped.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fitPromptTokens, INPUT_TOO_LONG, type WindowSpec } from "./prompt-window.js";

const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const w = (over: Partial<WindowSpec> = {}): WindowSpec => ({
  contextSize: 64,
  addsBos: true,
  numKeep: 4,
  numPredict: 8,
  truncate: true,
  ...over,
});

describe("fitting a prompt into the window (generate)", () => {
  it("leaves a prompt that fits alone", () => {
    assert.deepEqual(fitPromptTokens(range(10), w()), range(10));
  });

  it("keeps num_keep tokens and the end, leaving num_predict places", () => {
    const fitted = fitPromptTokens(range(200), w());
    assert.equal(fitted.length, 64 - 1 - 8);
    assert.deepEqual(fitted.slice(0, 4), [0, 1, 2, 3]);
    assert.deepEqual(fitted.slice(4), range(200).slice(200 - 51));
  });

  it("leaves half the rest when num_predict is unbounded (a context shift's worth)", () => {
    const fitted = fitPromptTokens(range(200), w({ numPredict: undefined }));
    assert.equal(fitted.length, 64 - 1 - Math.floor((64 - 4 - 1) / 2));
    assert.equal(fitted.at(-1), 199);
  });

  it("refuses with Ollama's words when truncate is false", () => {
    assert.throws(() => fitPromptTokens(range(200), w({ truncate: false })), {
      message: INPUT_TOO_LONG,
    });
  });
});
