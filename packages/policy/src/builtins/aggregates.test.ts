import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { callBuiltin, callJSON, obj, set, typeError } from "./testing/call-builtin.js";

describe("count", () => {
  test("counts array elements, object keys, set members and string code points", () => {
    assert.equal(callBuiltin("count", [[1, 2, 3, 4]]), 4);
    assert.equal(callBuiltin("count", [{ v1: "hello", v2: "goodbye" }]), 2);
    assert.equal(callBuiltin("count", [set(1, 2, 2, 3)]), 3);
    assert.equal(callBuiltin("count", ["åäö"]), 3);
    assert.equal(callBuiltin("count", ["😀x"]), 2);
  });

  test("refuses scalars other than strings", () => {
    assert.throws(
      () => callBuiltin("count", [null]),
      typeError("count: operand 1 must be one of {array, object, set, string} but got null"),
    );
    assert.throws(
      () => callBuiltin("count", [5]),
      typeError("count: operand 1 must be one of {array, object, set, string} but got number"),
    );
  });
});

describe("sum and product", () => {
  test("add or multiply the numbers of an array or set", () => {
    assert.equal(callBuiltin("sum", [[1, 2, 3, 4]]), 10);
    assert.equal(callBuiltin("sum", [set(1, 2, 3, 4)]), 10);
    assert.equal(callBuiltin("product", [[1, 2, 3, 4]]), 24);
    assert.equal(callBuiltin("sum", [[]]), 0);
    assert.equal(callBuiltin("product", [[]]), 1);
  });

  test("keep big integers exact and floats as floats", () => {
    assert.equal(callBuiltin("sum", [[49649733057, 1]]), 49649733058);
    assert.equal(callJSON("product", [10n ** 20n, 10]), "1000000000000000000000");
    assert.equal(callBuiltin("sum", [[0.5, 1]]), 1.5);
  });

  test("refuse non-collections and non-number members", () => {
    assert.throws(
      () => callBuiltin("sum", ["12"]),
      typeError("sum: operand 1 must be one of {set, array} but got string"),
    );
    assert.throws(
      () => callBuiltin("product", [[1, "2"]]),
      typeError("product: operand 1 must be array of numbers but got array containing string"),
    );
    assert.throws(
      () => callBuiltin("sum", [set(1, null)]),
      typeError("sum: operand 1 must be set of numbers but got set containing null"),
    );
  });
});

describe("max, min and sort", () => {
  test("max and min pick by Rego's ordering", () => {
    assert.equal(callBuiltin("max", [[1, 2, 3, 4]]), 4);
    assert.equal(callBuiltin("min", [[3, 2, 1, 4, 6, -7, 10]]), -7);
    assert.equal(callBuiltin("max", [[1, "a", null]]), "a");
    assert.equal(callBuiltin("min", [set(1, 2, 3)]), 1);
  });

  test("max and min of an empty collection are undefined", () => {
    assert.equal(callBuiltin("max", [[]]), undefined);
    assert.equal(callBuiltin("min", [set()]), undefined);
  });

  test("sort orders arrays and sets into a new array", () => {
    const input = [4, 3, 2, 1];
    assert.equal(callJSON("sort", input), "[1,2,3,4]");
    assert.deepEqual(input, [4, 3, 2, 1]);
    assert.equal(callJSON("sort", set("b", "a", 1)), '[1,"a","b"]');
    assert.equal(callJSON("sort", [[2], [1, 5], null, obj(["a", 1])]), '[null,[1,5],[2],{"a":1}]');
  });

  test("refuse non-collections", () => {
    assert.throws(
      () => callBuiltin("max", [{}]),
      typeError("max: operand 1 must be one of {set, array} but got object"),
    );
    assert.throws(
      () => callBuiltin("sort", ["abc"]),
      typeError("sort: operand 1 must be one of {set, array} but got string"),
    );
  });
});

describe("all and any (deprecated)", () => {
  test("all is true when every member is true", () => {
    assert.equal(callBuiltin("all", [[true, true]]), true);
    assert.equal(callBuiltin("all", [[true, 1]]), false);
    assert.equal(callBuiltin("all", [[]]), true);
  });

  test("any is true when some member is true", () => {
    assert.equal(callBuiltin("any", [set(false, true)]), true);
    assert.equal(callBuiltin("any", [["true"]]), false);
    assert.equal(callBuiltin("any", [[]]), false);
  });

  test("refuse non-collections", () => {
    assert.throws(
      () => callBuiltin("all", [true]),
      typeError("all: operand 1 must be one of {array, set} but got boolean"),
    );
  });
});

describe("membership (the in operator)", () => {
  test("x in coll looks at set members, array elements and object values", () => {
    assert.equal(callBuiltin("internal.member_2", [1, set(1)]), true);
    assert.equal(callBuiltin("internal.member_2", [1, [2, 1.0]]), true);
    assert.equal(callBuiltin("internal.member_2", [1, { foo: 1 }]), true);
    assert.equal(callBuiltin("internal.member_2", ["foo", { foo: 1 }]), false);
    assert.equal(callBuiltin("internal.member_2", [{ a: [1] }, [{ a: [1] }]]), true);
  });

  test("x in a scalar is false, not an error", () => {
    assert.equal(callBuiltin("internal.member_2", [1, "foo"]), false);
    assert.equal(callBuiltin("internal.member_2", ["foo", 1]), false);
  });

  test("k, v in coll matches keys, indexes and set members", () => {
    assert.equal(callBuiltin("internal.member_3", ["foo", 1, { foo: 1 }]), true);
    assert.equal(callBuiltin("internal.member_3", ["foo", 2, { foo: 1 }]), false);
    assert.equal(callBuiltin("internal.member_3", [1, "two", ["one", "two"]]), true);
    assert.equal(callBuiltin("internal.member_3", ["1", "two", ["one", "two"]]), false);
    assert.equal(callBuiltin("internal.member_3", [2, 2, set(2)]), true);
    assert.equal(callBuiltin("internal.member_3", [2, 3, set(2)]), false);
    assert.equal(callBuiltin("internal.member_3", [0, "f", "foo"]), false);
  });
});
