import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { callBuiltin, callJSON, obj, set, typeError } from "./testing/call-builtin.js";

describe("object.get", () => {
  test("returns the value at a key, or the default", () => {
    assert.equal(callBuiltin("object.get", [{ a: "b" }, "a", "c"]), "b");
    assert.equal(callBuiltin("object.get", [{ a: "b" }, "x", "c"]), "c");
    assert.equal(callBuiltin("object.get", [obj([1, 2]), 1, 3]), 2);
    assert.equal(callBuiltin("object.get", [obj([1, 2]), 2, 3]), 3);
  });

  test("follows an array key as a path through objects, arrays and sets", () => {
    assert.equal(callJSON("object.get", { a: 1 }, [], 2), '{"a":1}');
    assert.equal(callBuiltin("object.get", [{ a: { b: { c: 1 } } }, ["a", "b", "c"], 2]), 1);
    assert.equal(callBuiltin("object.get", [{ a: { b: [{ c: 1 }] } }, ["a", "b", 0, "c"], 2]), 1);
    assert.equal(callBuiltin("object.get", [{ a: { b: [1, 2, 3] } }, ["a", "b", "a"], 2]), 2);
    assert.equal(callBuiltin("object.get", [{ a: { b: [1] } }, ["a", "b", 5], 2]), 2);
    assert.equal(
      callBuiltin("object.get", [
        obj([1, obj(["b", obj([[1, 2, 3], 1])])]),
        [1, "b", [1, 2, 3]],
        2,
      ]),
      1,
    );
    assert.equal(callBuiltin("object.get", [{ a: set("x") }, ["a", "x"], 2]), "x");
  });

  test("refuses a non-object", () => {
    assert.throws(
      () => callBuiltin("object.get", ["object", ["a"], 2]),
      typeError("object.get: operand 1 must be object but got string"),
    );
  });
});

describe("object.keys", () => {
  test("returns the set of keys of any kind", () => {
    assert.equal(callJSON("object.keys", { a: 1, b: 2 }), '["a","b"]');
    assert.equal(callJSON("object.keys", obj([[1], 1], [set("b"), 2])), '[[1],["b"]]');
    assert.equal(callJSON("object.keys", {}), "[]");
    assert.throws(
      () => callBuiltin("object.keys", [[]]),
      typeError("object.keys: operand 1 must be object but got array"),
    );
  });
});

describe("object.remove and object.filter", () => {
  const doc = { a: 1, b: { c: 3 }, d: 4 };

  test("remove drops the top-level keys named by an array, set or object", () => {
    assert.equal(callJSON("object.remove", doc, ["d", "b"]), '{"a":1}');
    assert.equal(callJSON("object.remove", doc, set("b", "d")), '{"a":1}');
    assert.equal(callJSON("object.remove", doc, { b: 1, d: "" }), '{"a":1}');
    assert.equal(callJSON("object.remove", doc, set("z")), '{"a":1,"b":{"c":3},"d":4}');
    assert.equal(callJSON("object.remove", obj(["a", 1], [[[7]], 2]), set([[7]])), '{"a":1}');
  });

  test("filter keeps only the named top-level keys", () => {
    assert.equal(callJSON("object.filter", doc, ["a", "d"]), '{"a":1,"d":4}');
    assert.equal(callJSON("object.filter", doc, set()), "{}");
    assert.equal(callJSON("object.filter", doc, { b: "x" }), '{"b":{"c":3}}');
    assert.equal(callJSON("object.filter", {}, ["a"]), "{}");
  });

  test("both name the bad operand", () => {
    for (const fn of ["object.remove", "object.filter"]) {
      assert.throws(
        () => callBuiltin(fn, [["a"], ["a"]]),
        typeError(`${fn}: operand 1 must be object but got array`),
      );
      assert.throws(
        () => callBuiltin(fn, [{ a: 1 }, "a"]),
        typeError(`${fn}: operand 2 must be one of {object, set, array} but got string`),
      );
    }
  });
});

describe("object.union and object.union_n", () => {
  test("union merges nested objects and lets the right side win elsewhere", () => {
    assert.equal(callJSON("object.union", { a: 1 }, { b: 2 }), '{"a":1,"b":2}');
    assert.equal(callJSON("object.union", { a: 1 }, { a: 2 }), '{"a":2}');
    assert.equal(
      callJSON(
        "object.union",
        { a: { b: { c: 1 } }, e: 1 },
        { a: { b: "foo", b1: "bar" }, d: 7, e: 17 },
      ),
      '{"a":{"b":"foo","b1":"bar"},"d":7,"e":17}',
    );
    assert.equal(callJSON("object.union", { a: { x: 1 } }, { a: { y: 2 } }), '{"a":{"x":1,"y":2}}');
  });

  test("union_n folds a list of objects left to right", () => {
    assert.equal(callJSON("object.union_n", [{}]), "{}");
    assert.equal(callJSON("object.union_n", []), "{}");
    assert.equal(
      callJSON("object.union_n", [{ foo: "bar" }, { foo: "baz", x: 1 }]),
      '{"foo":"baz","x":1}',
    );
  });

  test("both refuse non-objects", () => {
    assert.throws(
      () => callBuiltin("object.union", [{}, [1]]),
      typeError("object.union: operand 2 must be object but got array"),
    );
    assert.throws(
      () => callBuiltin("object.union_n", [[{ foo: 1 }, "baz"]]),
      typeError(
        "object.union_n: operand 1 must be array of objects but got array containing string",
      ),
    );
    assert.throws(
      () => callBuiltin("object.union_n", [{}]),
      typeError("object.union_n: operand 1 must be array but got object"),
    );
  });
});

describe("object.subset", () => {
  test("objects are subsets key by key, recursively", () => {
    const sup = { a: 5, b: 7, nested: { x: 10, y: 15, s: set(1, 2, 3, 4), arr: [6, 7, 8, 9] } };
    assert.equal(callBuiltin("object.subset", [sup, { a: 5 }]), true);
    assert.equal(callBuiltin("object.subset", [sup, { a: 5, b: 10 }]), false);
    assert.equal(
      callBuiltin("object.subset", [sup, { nested: { x: 10, s: set(4, 1), arr: [7, 8] } }]),
      true,
    );
    assert.equal(callBuiltin("object.subset", [{ a: 5 }, sup]), false);
  });

  test("sets by membership, arrays as a contiguous run, a set inside an array by membership", () => {
    assert.equal(callBuiltin("object.subset", [set(1, 2, 3), set(3, 2)]), true);
    assert.equal(callBuiltin("object.subset", [set(1, set("a", "b")), set(set("a"))]), false);
    assert.equal(
      callBuiltin("object.subset", [
        [1, 2, 3, 4, 5, 6],
        [3, 4, 5],
      ]),
      true,
    );
    assert.equal(
      callBuiltin("object.subset", [
        [1, 2, 3, 4, 5, 6],
        [4, 5, 6, 8],
      ]),
      false,
    );
    assert.equal(
      callBuiltin("object.subset", [
        [1, 2, 3],
        [1, 3],
      ]),
      false,
    );
    assert.equal(callBuiltin("object.subset", [[1, 2, 3, 4], set(4, 2)]), true);
    assert.equal(callBuiltin("object.subset", [[1, 2, 3], set(9)]), false);
  });

  test("a set inside an array counts matching elements as OPA does", () => {
    assert.equal(callBuiltin("object.subset", [[4, 4], set(4, 2)]), true);
    assert.equal(callBuiltin("object.subset", [[], set()]), false);
    assert.equal(callBuiltin("object.subset", [[1], set()]), true);
  });

  test("nested values of different kinds are compared by equality", () => {
    assert.equal(callBuiltin("object.subset", [{ a: [1, 2] }, { a: set(1) }]), false);
    assert.equal(callBuiltin("object.subset", [{ a: [1, 2] }, { a: [1, 2] }]), true);
  });

  test("mismatched kinds are a type error", () => {
    for (const [sup, sub] of [
      [set(1), [1]],
      [1, [1]],
      [{}, set()],
    ]) {
      assert.throws(
        () => callBuiltin("object.subset", [sup, sub]),
        typeError(
          "object.subset: both arguments object.subset must be of the same type or array and set",
        ),
      );
    }
  });
});
