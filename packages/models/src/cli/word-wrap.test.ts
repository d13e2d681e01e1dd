import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { WordWrapper, wrapLimit } from "./word-wrap.js";

/** Writes `chunks` through a wrapper of `limit` columns; returns the text written. */
function wrapped(limit: number, chunks: string[]): string {
  let out = "";
  const w = new WordWrapper({ write: (t: string) => (out += t) }, limit);
  for (const c of chunks) w.write(c);
  w.end();
  return out;
}

describe("WordWrapper", () => {
  it("breaks between words before the limit, whatever the chunking", () => {
    const text = "the quick brown fox jumps over the lazy dog";
    const expected = "the quick\nbrown fox\njumps over\nthe lazy\ndog";
    assert.equal(wrapped(10, [text]), expected);
    assert.equal(wrapped(10, [...text]), expected, "one character at a time");
    assert.equal(
      wrapped(10, ["the qu", "ick bro", "wn fox jumps over the l", "azy dog"]),
      expected,
    );
  });

  it("keeps the text's own newlines and restarts the count after them", () => {
    assert.equal(wrapped(10, ["ab\ncdefgh ij kl"]), "ab\ncdefgh ij\nkl");
  });

  it("writes a word longer than a line as it is", () => {
    assert.equal(wrapped(5, ["a abcdefghij b"]), "a\nabcdefghij\nb");
  });

  it("wraps only on a terminal at least 10 columns wide, 5 short of its edge", () => {
    assert.equal(wrapLimit({ write: () => 0, isTTY: true, columns: 80 }), 75);
    assert.equal(wrapLimit({ write: () => 0, isTTY: true, columns: 9 }), undefined);
    assert.equal(wrapLimit({ write: () => 0, columns: 80 }), undefined);
    assert.equal(wrapLimit({ write: () => 0, isTTY: true }), undefined);
  });
});
