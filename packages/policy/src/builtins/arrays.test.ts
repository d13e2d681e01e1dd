import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { callBuiltin, callJSON, typeError } from "./testing/call-builtin.js";

describe("array builtins", () => {
  test("concat joins two arrays", () => {
    assert.equal(callJSON("array.concat", [1, 2], [3, 4]), "[1,2,3,4]");
    assert.equal(callJSON("array.concat", [], []), "[]");
  });

  test("concat names the bad operand", () => {
    assert.throws(
      () => callBuiltin("array.concat", [{ a: 1 }, [3]]),
      typeError("array.concat: operand 1 must be array but got object"),
    );
    assert.throws(
      () => callBuiltin("array.concat", [[1], "x"]),
      typeError("array.concat: operand 2 must be array but got string"),
    );
  });

  test("slice takes start inclusive, stop exclusive, clamped to the array", () => {
    assert.equal(callJSON("array.slice", [1, 2, 3, 4, 5], 1, 3), "[2,3]");
    assert.equal(callJSON("array.slice", [1, 2, 3], 0, 0), "[]");
    assert.equal(callJSON("array.slice", [1, 2, 3, 4, 5], -4, -1), "[]");
    assert.equal(callJSON("array.slice", [1, 2, 3, 4, 5], 4, 1), "[]");
    assert.equal(callJSON("array.slice", [1, 2, 3, 4, 5], -1, 2), "[1,2]");
    assert.equal(callJSON("array.slice", [1, 2, 3, 4, 5], 3, 6), "[4,5]");
    assert.equal(callJSON("array.slice", [1, 2, 3], 1000, 2000), "[]");
    assert.equal(callJSON("array.slice", [1, 2, 3], 1, 10n ** 30n), "[2,3]");
  });

  test("slice refuses float indexes", () => {
    assert.throws(
      () => callBuiltin("array.slice", [[1], 0.5, 1]),
      typeError("array.slice: operand 2 must be integer number but got floating-point number"),
    );
  });

  test("reverse reverses without touching the input", () => {
    const input = [1, 2, 3];
    assert.equal(callJSON("array.reverse", input), "[3,2,1]");
    assert.deepEqual(input, [1, 2, 3]);
    assert.throws(
      () => callBuiltin("array.reverse", [{ bar: "baz" }]),
      typeError("array.reverse: operand 1 must be array but got object"),
    );
  });

  test("flatten splices nested arrays one level deep", () => {
    assert.equal(callJSON("array.flatten", [[1, 2], [3, 4], [5]]), "[1,2,3,4,5]");
    assert.equal(callJSON("array.flatten", [[[1], [2, 3, []]], [[4, 5]]]), "[[1],[2,3,[]],[4,5]]");
    assert.equal(
      callJSON("array.flatten", [[1, 2], "string", [3, { a: "b" }], 4.5, [6, [7, 8]]]),
      '[1,2,"string",3,{"a":"b"},4.5,6,[7,8]]',
    );
    assert.throws(
      () => callBuiltin("array.flatten", [42]),
      typeError("array.flatten: operand 1 must be array but got number"),
    );
  });
});
