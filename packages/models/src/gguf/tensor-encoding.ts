// Encodes floats into ggml's tensor layouts: F32, F16 and Q8_0.
import { GgmlTensorType } from "./gguf-format.js";

/**
 * Encodes float values into ggml's tensor layouts: F32, F16 and Q8_0 (blocks of 32 values,
 * each an f16 scale and 32 signed bytes). Q8_0 stores zeros and scaled identities exactly.
 */

const f32Scratch = new Float32Array(1);
const u32Scratch = new Uint32Array(f32Scratch.buffer);

/**
 * Converts a float to IEEE half precision bits, rounding to nearest. Values below the
 * smallest normal half (6.1e-5) become subnormals: Q8_0 scales of small rows are that small.
 */
export function toHalf(value: number): number {
  f32Scratch[0] = value;
  const x = u32Scratch[0] ?? 0;
  const sign = (x >>> 16) & 0x8000;
  const exp = ((x >>> 23) & 0xff) - 127 + 15;
  const mant = x & 0x7fffff;
  if (exp <= 0) {
    if (exp < -10) return sign; // below half of the smallest subnormal
    const shift = 14 - exp;
    return sign | (((mant | 0x800000) + (1 << (shift - 1))) >>> shift);
  }
  if (exp >= 31) return sign | 0x7c00;
  return sign | ((exp << 10) + ((mant + 0x1000) >>> 13)); // a mantissa carry raises the exponent
}

/** Bits of a half back to a float (what toHalf writes: normals, subnormals, zero). */
export function fromHalf(bits: number): number {
  const exp = (bits >>> 10) & 0x1f;
  const sign = bits & 0x8000 ? -1 : 1;
  const mant = bits & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  return sign * 2 ** (exp - 15) * (1 + mant / 1024);
}

/** Q8_0 of `values` (a multiple of 32 long): per block d = max|x| / 127, q = round(x / d). */
export function encodeQ8_0(values: Float32Array): Buffer {
  if (values.length % 32 !== 0) throw new RangeError("Q8_0 needs a multiple of 32 values");
  const out = Buffer.alloc((values.length / 32) * 34);
  for (let block = 0; block * 32 < values.length; block++) {
    const start = block * 32;
    let max = 0;
    for (let i = 0; i < 32; i++) max = Math.max(max, Math.abs(values[start + i] ?? 0));
    if (max === 0) continue; // all zero: scale 0, quants 0
    const halfBits = toHalf(max / 127);
    const d = fromHalf(halfBits);
    out.writeUInt16LE(halfBits, block * 34);
    for (let i = 0; i < 32; i++) {
      const q = Math.max(-127, Math.min(127, Math.round((values[start + i] ?? 0) / d)));
      out.writeInt8(q, block * 34 + 2 + i);
    }
  }
  return out;
}

/** Values in the layout of `type`. */
export function encodeTensor(values: Float32Array, type: GgmlTensorType): Buffer {
  switch (type) {
    case GgmlTensorType.F32: {
      const out = Buffer.alloc(values.length * 4);
      for (let i = 0; i < values.length; i++) out.writeFloatLE(values[i] ?? 0, i * 4);
      return out;
    }
    case GgmlTensorType.F16: {
      const out = Buffer.alloc(values.length * 2);
      for (let i = 0; i < values.length; i++) out.writeUInt16LE(toHalf(values[i] ?? 0), i * 2);
      return out;
    }
    case GgmlTensorType.Q8_0:
      return encodeQ8_0(values);
  }
}
