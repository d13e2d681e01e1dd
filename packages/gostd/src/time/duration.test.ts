// time.ParseDuration against Go's documented forms and error texts.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DurationError, parseGoDuration } from "./duration.js";

describe("time.ParseDuration", () => {
  it("reads signed sequences of decimal numbers with units into nanoseconds", () => {
    assert.equal(parseGoDuration("1h30m"), 5_400_000_000_000n);
    assert.equal(parseGoDuration("-1.5s"), -1_500_000_000n);
    assert.equal(parseGoDuration("300ms"), 300_000_000n);
    assert.equal(parseGoDuration("2µs1us1μs1ns"), 4_001n);
    assert.equal(parseGoDuration("+0"), 0n);
  });

  it("rejects what Go rejects, with Go's messages", () => {
    const rejects = (text: string, message: string) =>
      assert.throws(
        () => parseGoDuration(text),
        (e) => e instanceof DurationError && e.message === message,
      );
    rejects("", 'time: invalid duration ""');
    rejects("5", 'time: missing unit in duration "5"');
    rejects("1d", 'time: unknown unit "d" in duration "1d"');
    rejects(".s", 'time: invalid duration ".s"');
    rejects("9223372037s", 'time: invalid duration "9223372037s"');
  });
});
