// Tests of the `run --verbose` timing lines and Go duration notation.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { goDuration, statsText } from "./run-stats.js";

describe("run --verbose timings", () => {
  it("writes durations as Go's time.Duration prints them", () => {
    assert.equal(goDuration(0), "0s");
    assert.equal(goDuration(850), "850ns");
    assert.equal(goDuration(1_500), "1.5µs");
    assert.equal(goDuration(12_345_678), "12.345678ms");
    assert.equal(goDuration(2_000_000), "2ms");
    assert.equal(goDuration(1_500_000_000), "1.5s");
    assert.equal(goDuration(65_500_000_000), "1m5.5s");
    assert.equal(goDuration(3_605_000_000_000), "1h0m5s");
  });

  it("prints Ollama's lines with their labels and rates, skipping absent figures", () => {
    const text = statsText({
      total_duration: 2_000_000_000,
      load_duration: 5_000_000,
      prompt_eval_count: 10,
      prompt_eval_duration: 500_000_000,
      eval_count: 30,
      eval_duration: 1_000_000_000,
    });
    assert.equal(
      text,
      [
        "total duration:       2s",
        "load duration:        5ms",
        "prompt eval count:    10 token(s)",
        "prompt eval duration: 500ms",
        "prompt eval rate:     20.00 tokens/s",
        "eval count:           30 token(s)",
        "eval duration:        1s",
        "eval rate:            30.00 tokens/s",
        "",
      ].join("\n"),
    );
    assert.equal(statsText({ eval_count: 2 }), "eval count:           2 token(s)\n");
  });
});
