import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { callBuiltin, callJSON, set, typeError } from "./testing/call-builtin.js";

/** [description, doc, patch, expected JSON or "undefined"] */
const cases: [string, unknown, unknown[], string][] = [
  [
    "adds an object member",
    { foo: "bar" },
    [{ op: "add", path: "/baz", value: "qux" }],
    '{"baz":"qux","foo":"bar"}',
  ],
  [
    "inserts into an array",
    { foo: ["bar", "baz"] },
    [{ op: "add", path: "/foo/1", value: "qux" }],
    '{"foo":["bar","qux","baz"]}',
  ],
  ["appends with -", [1, 2], [{ op: "add", path: "/-", value: 3 }], "[1,2,3]"],
  ["appends at length", ["a"], [{ op: "add", path: "/1", value: "b" }], '["a","b"]'],
  [
    "appends deep with -",
    [1, [2, [3]]],
    [{ op: "add", path: "/1/1/-", value: 4 }],
    "[1,[2,[3,4]]]",
  ],
  [
    "does not flatten an added array",
    ["a"],
    [{ op: "add", path: "/0", value: [1, 2] }],
    '[[1,2],"a"]',
  ],
  ["replaces the root with add", { foo: 1 }, [{ op: "add", path: "", value: [] }], "[]"],
  ["adds under the empty key", {}, [{ op: "add", path: "/", value: 1 }], '{"":1}'],
  [
    "adds under a trailing empty key",
    { foo: {} },
    [{ op: "add", path: "/foo/", value: 1 }],
    '{"foo":{"":1}}',
  ],
  [
    "accepts a path without a leading slash",
    { foo: {} },
    [{ op: "add", path: "foo/x", value: 1 }],
    '{"foo":{"x":1}}',
  ],
  ["removes an object member", { baz: 1, foo: 2 }, [{ op: "remove", path: "/baz" }], '{"foo":2}'],
  [
    "removes array elements in turn",
    [1, 2, 3, 4],
    [
      { op: "remove", path: "/1" },
      { op: "remove", path: "/2" },
    ],
    "[1,3]",
  ],
  [
    "replaces a value",
    { baz: "qux" },
    [{ op: "replace", path: "/baz", value: null }],
    '{"baz":null}',
  ],
  ["replaces an array element", ["a", "b"], [{ op: "replace", path: "/1", value: 0 }], '["a",0]'],
  [
    "replaces the whole document",
    { foo: "bar" },
    [{ op: "replace", path: "", value: { baz: 1 } }],
    '{"baz":1}',
  ],
  [
    "moves a value",
    { foo: { waldo: "fred" }, qux: {} },
    [{ op: "move", from: "/foo/waldo", path: "/qux/thud" }],
    '{"foo":{},"qux":{"thud":"fred"}}',
  ],
  [
    "moves an array element",
    ["all", "grass", "cows", "eat"],
    [{ op: "move", from: "/1", path: "/3" }],
    '["all","cows","eat","grass"]',
  ],
  [
    "moves to the same place",
    { foo: 1 },
    [{ op: "move", from: "/foo", path: "/foo" }],
    '{"foo":1}',
  ],
  [
    "copies a value",
    { baz: [{ q: 1 }] },
    [{ op: "copy", from: "/baz/0", path: "/boo" }],
    '{"baz":[{"q":1}],"boo":{"q":1}}',
  ],
  [
    "passes a test op regardless of key order",
    { foo: { a: 1, b: 2 } },
    [{ op: "test", path: "/foo", value: { b: 2, a: 1 } }],
    '{"foo":{"a":1,"b":2}}',
  ],
  ["unescapes ~01 as ~1", { "~1": 10 }, [{ op: "test", path: "/~01", value: 10 }], '{"~1":10}'],
  [
    "ignores unknown members",
    { foo: 1 },
    [{ op: "test", path: "/foo", value: 1, spurious: 1 }],
    '{"foo":1}',
  ],
  [
    "fails a test op on a different value",
    { baz: "qux" },
    [{ op: "test", path: "/baz", value: "bar" }],
    "undefined",
  ],
  [
    "fails a test op comparing string and number",
    { x: 10 },
    [{ op: "test", path: "/x", value: "10" }],
    "undefined",
  ],
  [
    "fails to add below a missing object",
    { q: {} },
    [{ op: "add", path: "/a/b", value: 1 }],
    "undefined",
  ],
  [
    "fails to add past the array end",
    ["a", "b"],
    [{ op: "add", path: "/3", value: 1 }],
    "undefined",
  ],
  [
    "fails on a negative index",
    { bar: [1] },
    [{ op: "add", path: "/bar/-1", value: 1 }],
    "undefined",
  ],
  [
    "fails on an index with leading zeros",
    ["a", "b"],
    [{ op: "test", path: "/01", value: "b" }],
    "undefined",
  ],
  [
    "fails on an index in exponent form",
    ["a", "b"],
    [{ op: "test", path: "/1e0", value: "b" }],
    "undefined",
  ],
  [
    "fails on an object key for an array",
    ["a"],
    [{ op: "add", path: "/bar", value: 42 }],
    "undefined",
  ],
  [
    "removes the root, then adds a new one",
    { a: 1 },
    [
      { op: "remove", path: "" },
      { op: "add", path: "", value: 3 },
    ],
    "3",
  ],
  ["leaves nothing after removing the root", { a: 1 }, [{ op: "remove", path: "" }], "undefined"],
  [
    "fails to remove a removed root",
    { a: 1 },
    [
      { op: "remove", path: "" },
      { op: "remove", path: "" },
    ],
    "undefined",
  ],
  ["fails to remove a missing member", { foo: 1 }, [{ op: "remove", path: "/baz" }], "undefined"],
  ["fails to remove a missing index", ["a"], [{ op: "remove", path: "/1" }], "undefined"],
  [
    "fails to replace below a missing parent",
    { bar: 1 },
    [{ op: "replace", path: "/foo/bar", value: 1 }],
    "undefined",
  ],
  ["fails without a path", {}, [{ op: "add", value: 1 }], "undefined"],
  ["fails with a null path", {}, [{ op: "add", path: null, value: 1 }], "undefined"],
  ["fails without a value", [1], [{ op: "add", path: "/-" }], "undefined"],
  ["fails a test without a value", [false], [{ op: "test", path: "/0" }], "undefined"],
  ["fails a copy without from", [1], [{ op: "copy", path: "/-" }], "undefined"],
  [
    "fails a move from a missing location",
    { foo: 1 },
    [{ op: "move", from: "/bar", path: "/foo" }],
    "undefined",
  ],
  ["fails an unknown op", { foo: 1 }, [{ op: "spam", path: "/foo", value: 1 }], "undefined"],
  ["fails on an operation that is not an object", { foo: 1 }, ["add"], "undefined"],
  [
    "fails on a path that is not an index",
    [1, 2, 3],
    [{ op: "add", path: "1.2", value: "foo" }],
    "undefined",
  ],
];

describe("json.patch", () => {
  for (const [description, doc, patch, expected] of cases) {
    test(description, () => assert.equal(callJSON("json.patch", doc, patch), expected));
  }

  test("edits set members named by path segments", () => {
    const doc = { foo: set("a", "b", "c") };
    assert.equal(
      callJSON("json.patch", doc, [{ op: "remove", path: "foo/b" }]),
      '{"foo":["a","c"]}',
    );
    assert.equal(
      callJSON("json.patch", doc, [{ op: "add", path: "foo/d", value: "d" }]),
      '{"foo":["a","b","c","d"]}',
    );
    assert.equal(
      callJSON("json.patch", doc, [{ op: "add", path: "foo/d", value: "e" }]),
      "undefined",
    );
  });

  test("follows array paths through set members of any kind", () => {
    assert.equal(
      callJSON("json.patch", set([1]), [{ op: "add", path: [[1], 1], value: 2 }]),
      "[[1,2]]",
    );
  });

  test("does not change its input", () => {
    const doc = { foo: [1, 2] };
    callBuiltin("json.patch", [doc, [{ op: "remove", path: "/foo/0" }]]);
    assert.deepEqual(doc, { foo: [1, 2] });
  });

  test("refuses a patch list that is not an array", () => {
    assert.throws(
      () => callBuiltin("json.patch", [{}, { op: "add" }]),
      typeError("json.patch: operand 2 must be array but got object"),
    );
  });
});
