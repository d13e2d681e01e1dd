// Fitting text and media chunks into the window: media kept whole, text cut in the middle.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { LlmsrvError } from "../../errors.js";
import type { WindowSpec } from "../prompt-window.js";
import { fitMediaPrompt } from "./media-window.js";
import type { NativeChunk } from "./mtmd-addon.js";

const text = (...tokens: number[]): NativeChunk => ({
  type: "text",
  tokens: Int32Array.from(tokens),
  tokenCount: tokens.length,
  positions: tokens.length,
});
const image = (count: number): NativeChunk => ({
  type: "image",
  tokenCount: count,
  positions: count,
});
const window = (w: Partial<WindowSpec> = {}): WindowSpec => ({
  contextSize: 32,
  addsBos: true,
  numKeep: 2,
  numPredict: undefined,
  truncate: true,
  ...w,
});

function badRequest(pattern: RegExp) {
  return (e: unknown) =>
    e instanceof LlmsrvError && e.code === "bad_request" && pattern.test(e.message);
}

describe("fitMediaPrompt", () => {
  it("evaluates the beginning token, the prefix, text runs and media chunks in order", () => {
    const r = fitMediaPrompt([7], [text(10, 11), image(4), text(12)], 1, window());
    assert.deepEqual(r.items, [Int32Array.of(1, 7, 10, 11), 1, Int32Array.of(12)]);
    assert.deepEqual(r.textTokens, [7, 10, 11, 12]);
    assert.equal(r.total, 1 + 4 + 4);
    assert.equal(r.mediaTokens, 4);
  });

  it("cuts text after num_keep to fit, keeping the image whole", () => {
    const long = Array.from({ length: 40 }, (_, i) => 100 + i);
    const r = fitMediaPrompt(
      [],
      [text(...long.slice(0, 20)), image(8), text(...long.slice(20))],
      1,
      window(),
    );
    assert.ok(r.total < 32, `total ${r.total}`);
    assert.deepEqual(r.textTokens.slice(0, 2), [100, 101]);
    assert.equal(r.textTokens.at(-1), 139);
    assert.ok(r.items.includes(1));
  });

  it("refuses a prompt that does not fit when truncation is off", () => {
    assert.throws(
      () => fitMediaPrompt([], [text(...new Array(40).fill(5))], 1, window({ truncate: false })),
      badRequest(/exceeds the context length/),
    );
  });

  it("refuses more media tokens than the window holds, naming both numbers", () => {
    assert.throws(
      () => fitMediaPrompt([], [image(20), image(20)], 1, window()),
      badRequest(/take 40 tokens, more than the context window of 32 tokens/),
    );
  });
});
