// Tests of the tensor encoders: F32, F16 and Q8_0 round trips.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { encodeQ8_0, fromHalf, toHalf } from "./tensor-encoding.js";

/** Q8_0 back to floats: each block's f16 scale times its 32 signed bytes. */
function decodeQ8_0(bytes: Buffer): Float32Array {
  const out = new Float32Array((bytes.length / 34) * 32);
  for (let i = 0; i < out.length; i++) {
    const block = Math.floor(i / 32) * 34;
    out[i] = fromHalf(bytes.readUInt16LE(block)) * bytes.readInt8(block + 2 + (i % 32));
  }
  return out;
}

describe("tensor encoding", () => {
  it("converts floats to half precision and back", () => {
    assert.equal(toHalf(1), 0x3c00);
    assert.equal(toHalf(-2), 0xc000);
    assert.equal(toHalf(0.5), 0x3800);
    assert.equal(toHalf(0), 0);
    assert.equal(toHalf(65504), 0x7bff);
    assert.equal(toHalf(2 ** -24), 0x0001, "the smallest subnormal");
    assert.equal(toHalf(1.2457e-5), 209, "a subnormal: 209 x 2^-24");
    assert.equal(toHalf(2 ** -26), 0, "under half the smallest subnormal");
    for (const v of [1, -2, 0.1, Math.PI, 1e-3, 6.2e-5, 1.2457e-5, 30]) {
      const back = fromHalf(toHalf(v));
      assert.ok(
        Math.abs(back - v) <= Math.max(Math.abs(v) * 2 ** -11, 2 ** -25),
        `${v} -> ${back}`,
      );
    }
  });

  it("stores zeros and a scaled identity exactly and rounds other values to the block scale", () => {
    const values = new Float32Array(64);
    values[3] = 64;
    values[40] = 1;
    const bytes = encodeQ8_0(values);
    assert.equal(bytes.length, 2 * 34);
    const back = decodeQ8_0(bytes);
    assert.ok(Math.abs((back[3] ?? 0) - 64) < 0.05);
    assert.ok(Math.abs((back[40] ?? 0) - 1) < 0.001);
    assert.equal(back.filter((x) => x !== 0).length, 2);
    const noisy = Float32Array.from({ length: 32 }, (_, i) => Math.sin(i) * 0.05);
    const round = decodeQ8_0(encodeQ8_0(noisy));
    for (let i = 0; i < 32; i++) {
      assert.ok(Math.abs((round[i] ?? 0) - (noisy[i] ?? 0)) <= 0.05 / 127, `value ${i}`);
    }
  });

  it("refuses a length that is not whole blocks", () => {
    assert.throws(() => encodeQ8_0(new Float32Array(33)), /multiple of 32/);
  });
});
