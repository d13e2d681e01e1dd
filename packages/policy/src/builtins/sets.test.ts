import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { callBuiltin, callJSON, set, typeError } from "./testing/call-builtin.js";

describe("set operators", () => {
  test("and is intersection, or is union", () => {
    assert.equal(callJSON("and", set(3, 2, 3), set(3, 4, 3)), "[3]");
    assert.equal(callJSON("or", set(3, 2), set(3, 4)), "[2,3,4]");
  });

  test("members compare by value, composites included", () => {
    assert.equal(callJSON("and", set([1], { a: 1 }), set({ a: 1 }, [2])), '[{"a":1}]');
    assert.equal(callJSON("and", set(1), set(1.0)), "[1]");
  });

  test("set_diff (deprecated) keeps members only in the first set", () => {
    assert.equal(callJSON("set_diff", set(1, 2, 3), set(2)), "[1,3]");
  });

  test("non-set operands are type errors", () => {
    assert.throws(
      () => callBuiltin("and", [[1], set(1)]),
      typeError("and: operand 1 must be set but got array"),
    );
    assert.throws(
      () => callBuiltin("or", [set(1), 1]),
      typeError("or: operand 2 must be set but got number"),
    );
  });
});

describe("intersection and union of a set of sets", () => {
  test("empty input gives the empty set", () => {
    assert.equal(callJSON("intersection", set()), "[]");
    assert.equal(callJSON("union", set()), "[]");
  });

  test("combine any number of sets", () => {
    const sets = set(set("a", "b", "c", "d"), set("b", "c", "d"), set("c", "d"), set("d"));
    assert.equal(callJSON("intersection", sets), '["d"]');
    assert.equal(callJSON("union", sets), '["a","b","c","d"]');
    assert.equal(callJSON("intersection", set(set(), set(1, 2))), "[]");
    assert.equal(callJSON("union", set(set(), set(1, 2))), "[1,2]");
  });

  test("refuse a non-set or a non-set member", () => {
    assert.throws(
      () => callBuiltin("union", [[set(1)]]),
      typeError("union: operand 1 must be set but got array"),
    );
    assert.throws(
      () => callBuiltin("intersection", [set(set(1), 2)]),
      typeError("intersection: operand 1 must be set but got number"),
    );
  });
});
