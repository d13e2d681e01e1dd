import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { callBuiltin, callJSON, set, typeError } from "./testing/call-builtin.js";

const doc = { a: { b: { c: 7, d: 8 } }, e: 9 };

describe("json.filter", () => {
  test("keeps only the given paths, written as strings or segment arrays", () => {
    assert.equal(callJSON("json.filter", doc, set("a/b/c")), '{"a":{"b":{"c":7}}}');
    assert.equal(callJSON("json.filter", doc, ["a/b/c", "e"]), '{"a":{"b":{"c":7}},"e":9}');
    assert.equal(
      callJSON("json.filter", doc, set(["a", "b", "c"], ["e"])),
      '{"a":{"b":{"c":7}},"e":9}',
    );
    assert.equal(
      callJSON("json.filter", doc, set("/a/b/d", ["a", "b", "c"])),
      '{"a":{"b":{"c":7,"d":8}}}',
    );
  });

  test("a shorter path covers a longer one", () => {
    assert.equal(callJSON("json.filter", { a: { b: 7 } }, set("a", "a/b")), '{"a":{"b":7}}');
    assert.equal(
      callJSON("json.filter", { a: { b: 7, c: 1 } }, ["a/b", "a"]),
      '{"a":{"b":7,"c":1}}',
    );
  });

  test("selects array elements by index and compacts the array", () => {
    assert.equal(
      callJSON("json.filter", { a: [{ b: 7, c: 8 }, { d: 9 }] }, set("a/0/b", "a/1")),
      '{"a":[{"b":7},{"d":9}]}',
    );
    assert.equal(
      callJSON("json.filter", { a: [{ 1: ["b", "c", "d"] }, { x: "y" }] }, set("a/0/1/2")),
      '{"a":[{"1":["d"]}]}',
    );
  });

  test("unescapes ~1 and ~0 in string paths", () => {
    assert.equal(
      callJSON("json.filter", { "a/b": 1, "m~n": 2, c: 3 }, ["a~1b", "m~0n"]),
      '{"a/b":1,"m~n":2}',
    );
  });

  test("empty path lists and empty documents give empty objects", () => {
    assert.equal(callJSON("json.filter", { a: 7 }, set()), "{}");
    assert.equal(callJSON("json.filter", {}, set("a/b")), "{}");
  });

  test("refuses bad operands with OPA's messages", () => {
    assert.throws(
      () => callBuiltin("json.filter", ["x", ["a"]]),
      typeError("json.filter: operand 1 must be object but got string"),
    );
    assert.throws(
      () => callBuiltin("json.filter", [{}, "a"]),
      typeError("json.filter: operand 2 must be one of {set, array} but got string"),
    );
  });
});

describe("json.remove", () => {
  test("drops the given paths", () => {
    assert.equal(callJSON("json.remove", doc, set("a/b/c")), '{"a":{"b":{"d":8}},"e":9}');
    assert.equal(callJSON("json.remove", doc, ["a/b/c", "e"]), '{"a":{"b":{"d":8}}}');
    assert.equal(callJSON("json.remove", doc, set(["a", "b", "c"], ["e"])), '{"a":{"b":{"d":8}}}');
    assert.equal(callJSON("json.remove", { a: { b: 7 }, c: 1 }, set("a", "a/b")), '{"c":1}');
    assert.equal(callJSON("json.remove", { a: { b: 7 }, c: 1 }, set("a/b", "c")), '{"a":{}}');
    assert.equal(callJSON("json.remove", { a: 7 }, set()), '{"a":7}');
  });

  test("removes array elements by index and compacts the array", () => {
    assert.equal(
      callJSON("json.remove", { a: [{ b: 7, c: 8 }, { d: 9 }] }, set("a/0/b", "a/1")),
      '{"a":[{"c":8}]}',
    );
    assert.equal(
      callJSON("json.remove", { a: [{ 1: ["b", "c", "d"] }, { x: "y" }] }, set("a/0/1/2")),
      '{"a":[{"1":["b","c"]},{"x":"y"}]}',
    );
  });

  test("does not change its input", () => {
    const input = { a: { b: 2, c: 3 } };
    assert.equal(callJSON("json.remove", input, set("a/b")), '{"a":{"c":3}}');
    assert.equal(callJSON("json.remove", input, set("a/c")), '{"a":{"b":2}}');
  });

  test("refuses bad operands and bad path elements with OPA's messages", () => {
    assert.throws(
      () => callBuiltin("json.remove", [22, ["a"]]),
      typeError("json.remove: operand 1 must be object but got number"),
    );
    assert.throws(
      () => callBuiltin("json.remove", [{}, { y: 1 }]),
      typeError("json.remove: operand 2 must be one of {set, array} but got object"),
    );
    assert.throws(
      () => callBuiltin("json.remove", [{}, ["a", 1]]),
      typeError(
        "json.remove: operand 2 must be one of {set, array} containing string paths or array of path segments but got number",
      ),
    );
  });
});
