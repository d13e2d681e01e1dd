import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { callBuiltin, callJSON, typeError } from "./testing/call-builtin.js";

describe("bits builtins", () => {
  test("and, or and xor combine bits", () => {
    assert.equal(callBuiltin("bits.and", [7, 9]), 1);
    assert.equal(callBuiltin("bits.or", [7, 9]), 15);
    assert.equal(callBuiltin("bits.xor", [42, 3]), 41);
    assert.equal(callBuiltin("bits.xor", [42, 42]), 0);
  });

  test("negative numbers behave as two's complement", () => {
    assert.equal(callBuiltin("bits.negate", [42]), -43);
    assert.equal(callBuiltin("bits.and", [-1, 255]), 255);
    assert.equal(callBuiltin("bits.rsh", [-8, 1]), -4);
  });

  test("shifts do not overflow 32 or 64 bits", () => {
    assert.equal(callBuiltin("bits.lsh", [2147483647, 1]), 4294967294);
    assert.equal(callJSON("bits.lsh", 9223372036854775807n, 1), "18446744073709551614");
    assert.equal(callBuiltin("bits.rsh", [8, 3]), 1);
    assert.equal(callBuiltin("bits.rsh", [2n ** 70n, 70]), 1);
  });

  test("floats are refused with OPA's message", () => {
    for (const name of ["bits.and", "bits.or", "bits.xor", "bits.lsh", "bits.rsh"]) {
      assert.throws(
        () => callBuiltin(name, [7.2, 42]),
        typeError(`${name}: operand 1 must be integer number but got floating-point number`),
      );
    }
    assert.throws(
      () => callBuiltin("bits.negate", [7.2]),
      typeError("bits.negate: operand 1 must be integer number but got floating-point number"),
    );
  });

  test("a negative shift count is refused", () => {
    assert.throws(
      () => callBuiltin("bits.lsh", [7, -1]),
      typeError(
        "bits.lsh: operand 2 must be an unsigned integer number but got a negative integer",
      ),
    );
  });

  test("a non-number is a type error", () => {
    assert.throws(
      () => callBuiltin("bits.or", [1, "2"]),
      typeError("bits.or: operand 2 must be number but got string"),
    );
  });
});
