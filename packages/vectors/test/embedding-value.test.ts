import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { decodeEmbedding } from "../src/loader/embedding-value.js";
import { base64Vector } from "./embeddings-endpoint.js";

/** Base64 of raw bytes. */
const b64 = (bytes: number[]) => Buffer.from(bytes).toString("base64");

describe("an embedding in a response", () => {
  it("reads base64 as little-endian float32", () => {
    // 1.5 is 0x3fc00000, -2 is 0xc0000000: little-endian bytes, low byte first.
    assert.deepEqual(decodeEmbedding(b64([0, 0, 0xc0, 0x3f, 0, 0, 0, 0xc0])), [1.5, -2]);
    const values = [0.25, -0.125, 3, 1e-3];
    assert.deepEqual(decodeEmbedding(base64Vector(values)), values.map(Math.fround));
  });

  it("takes an array of finite numbers as it is", () => {
    assert.deepEqual(decodeEmbedding([0.1, -0.2]), [0.1, -0.2]);
  });

  it("refuses what is not a vector", () => {
    const refused: Array<[string, unknown]> = [
      ["missing", undefined],
      ["null", null],
      ["an empty array", []],
      ["an empty string", ""],
      ["a string in an array", ["0.1"]],
      ["NaN in an array", [0.1, Number.NaN]],
      ["a length not a multiple of four bytes", b64([0, 0, 0xc0, 0x3f, 0])],
      ["characters outside base64", "AADAP!!!"],
      ["base64 with a line break", `${b64([0, 0, 0xc0, 0x3f])}\n`],
      ["a NaN float32", b64([0, 0, 0xc0, 0x7f])],
      ["an infinite float32", b64([0, 0, 0x80, 0x7f])],
      ["an object", { 0: 1 }],
    ];
    for (const [what, value] of refused) assert.equal(decodeEmbedding(value), undefined, what);
  });
});
