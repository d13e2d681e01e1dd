import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { formatNumber, type RegoNumber, toFloat } from "../value/number.js";
import {
  addBig,
  divideBig,
  multiplyBig,
  negateBig,
  parseDecimal,
  toBigFloat,
  toDouble,
} from "./big-float.js";
import { callBuiltin } from "./testing/call-builtin.js";

describe("64-bit big floats", () => {
  test("decimal text rounds to a 64-bit mantissa, ties to even", () => {
    // 0.1 = 0xCCCCCCCCCCCCCCCD × 2^-67 at 64 bits (53 bits would end in ...CCCD differently).
    assert.deepEqual(parseDecimal("0.1"), { neg: false, mant: 0xcccccccccccccccdn, exp: -67 });
    assert.deepEqual(parseDecimal("-2"), { neg: true, mant: 1n << 63n, exp: -62 });
    // 2^64 + 1 needs 65 bits: the tie rounds down to the even mantissa.
    assert.deepEqual(toBigFloat((1n << 64n) + 1n), { neg: false, mant: 1n << 63n, exp: 1 });
    assert.deepEqual(toBigFloat((1n << 64n) + 3n), { neg: false, mant: (1n << 63n) + 2n, exp: 1 });
  });

  test("integers of any width keep their value to 64 bits", () => {
    for (const bits of [1, 2, 8, 53, 63, 64, 65, 200, 1100]) {
      for (const n of [(1n << BigInt(bits)) - 1n, 1n << BigInt(bits - 1)]) {
        const x = toBigFloat(n);
        assert.equal(x.mant.toString(2).length, 64, `mantissa width for ${bits} bits`);
        const shift = BigInt(x.exp);
        const back = x.exp >= 0 ? x.mant << shift : x.mant >> -shift;
        if (bits <= 64) assert.equal(back, n);
        else assert.ok(back - n <= 1n << BigInt(bits - 64), `${bits}-bit value rounds to 64 bits`);
      }
    }
  });

  test("round-trips doubles that need no rounding", () => {
    for (const x of [0, 1, -1, 0.5, 2.75, 1e300, -1e-300, 123456.789]) {
      assert.equal(toDouble(toBigFloat(x)), x);
    }
  });

  test("arithmetic rounds at 64 bits, so decimal sums come out as written", () => {
    const big = (x: number) => toBigFloat(x);
    assert.equal(toDouble(addBig(big(0.1), big(0.2))), 0.3);
    assert.equal(toDouble(multiplyBig(big(1.1), big(1.1))), 1.21);
    assert.equal(toDouble(addBig(big(0.3), negateBig(big(0.1)))), 0.2);
    assert.equal(toDouble(divideBig(big(1), big(3))), 1 / 3);
    assert.equal(toDouble(addBig(big(1e300), big(1e-300))), 1e300);
  });
});

describe("float arithmetic builtins follow OPA", () => {
  test("0.1 + 0.2 is 0.3 and 1.1 * 1.1 is 1.21", () => {
    assert.equal(callBuiltin("plus", [0.1, 0.2]), 0.3);
    assert.equal(callBuiltin("mul", [1.1, 1.1]), 1.21);
    assert.equal(callBuiltin("mul", [0.1, 3]), 0.3);
    // 0.3 - 0.1 at 64 bits is not the value 0.2 reads as: OPA prints its own shortest text.
    assert.equal(
      formatNumber(callBuiltin("minus", [0.3, 0.1]) as RegoNumber),
      "0.20000000000000000002",
    );
    assert.equal(toFloat(callBuiltin("minus", [0.3, 0.1]) as RegoNumber), 0.2);
  });

  test("a result at a midpoint between doubles goes through OPA's shortest decimal text", () => {
    // The 64-bit product's shortest text, 150.28896546000000001, reads as the double
    // 150.28896546000001, which is not the double nearest to the 64-bit value.
    const product = callBuiltin("mul", [761.458, 0.19737]) as RegoNumber;
    assert.equal(formatNumber(product), "150.28896546000000001");
    assert.equal(toFloat(product), 150.28896546000001);
  });

  test("integers beyond the safe range written as floats mean their decimal value", () => {
    assert.equal(callBuiltin("mul", [37271, -3.06061e20]), -11407199531000000000000000n);
    assert.equal(callBuiltin("minus", [-6286750, 9.41426e22]), -94142600000000006286750n);
  });

  test("sum and product accumulate floats before rounding", () => {
    assert.equal(callBuiltin("sum", [[0.1, 0.2, 0.3]]), 0.6);
    assert.equal(callBuiltin("product", [[1.1, 1.1, 2]]), 2.42);
  });
});
