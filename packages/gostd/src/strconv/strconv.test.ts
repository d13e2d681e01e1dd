// strconv's FormatFloat and Quote against Go's documented results.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { formatExp, formatFixed, formatFloat, formatGeneral, formatHexFloat } from "./float.js";
import { canBackquote, goQuote } from "./quote.js";

describe("strconv.FormatFloat", () => {
  it("writes the shortest digits for 'g' with precision -1, exponent form from 1e21 or below 1e-4", () => {
    assert.deepEqual(
      [1, 0.1, 1e6, 123456789, 1e-5, 0.0001, -0, Number.NaN, -Infinity].map(formatFloat),
      ["1", "0.1", "1e+06", "1.23456789e+08", "1e-05", "0.0001", "-0", "NaN", "-Inf"],
    );
  });

  it("rounds the exact binary value half to even at a given precision", () => {
    assert.equal(formatFixed(2.5, 0), "2");
    assert.equal(formatFixed(0.125, 2), "0.12");
    assert.equal(formatFixed(1e22, 1), "10000000000000000000000.0");
    assert.equal(formatExp(1234.5, 2), "1.23e+03");
    assert.equal(formatGeneral(100000, 3), "1e+05");
    assert.equal(formatHexFloat(1, -1), "0x1p+00");
  });
});

describe("strconv.Quote", () => {
  it("keeps printable runes and escapes the rest as Go does", () => {
    assert.equal(goQuote('a"b\\\n\t\x07\x7f☺'), '"a\\"b\\\\\\n\\t\\a\\x7f☺"');
    assert.equal(goQuote("☺\u{10ffff}", true), '"\\u263a\\U0010ffff"');
    assert.equal(canBackquote("a`b"), false);
    assert.equal(canBackquote("a\tb"), true);
  });
});
