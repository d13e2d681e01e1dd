import assert from "node:assert/strict";
import { test } from "node:test";
import { compactJSONText } from "./compact-json.js";
import { jsonText } from "./json-text.js";
import { fromJSON, RegoObject, RegoSet, toJSON, type Value } from "./value.js";

/** The general path: plain JSON copy, then the Go-like encoder (newline dropped). */
function generalText(v: Value): string {
  return jsonText(toJSON(v)).slice(0, -1);
}

test("compact JSON text equals the general path for JSON-shaped values", () => {
  const values: Value[] = [
    null,
    true,
    false,
    0,
    -0,
    1.5,
    1e21,
    -2.5e-7,
    0.1 + 0.2,
    Number.MAX_VALUE,
    5e-324,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    123456789012345678901234567890n,
    "",
    'quote " backslash \\ newline \n tab \t nul \u0000 emoji 😀 lone \ud800',
    [],
    [1, "a", [null, []]],
    fromJSON({}),
    fromJSON({ b: 1, a: { z: [1, 2], y: {} }, é: "x", A: true, "": 0 }),
  ];
  for (const v of values) assert.equal(compactJSONText(v), generalText(v));
});

test("compact JSON text writes sets as sorted arrays, as the general path does", () => {
  const set = RegoSet.of(["b", 3, "a", null, [1], fromJSON({ k: 1 })]);
  const text = compactJSONText(set);
  assert.equal(text, '[null,3,"a","b",[1],{"k":1}]');
  assert.equal(text, generalText(set));
});

test("compact JSON text gives up where a plain object would reorder or drop keys", () => {
  assert.equal(compactJSONText(fromJSON({ b: 1, "10": 2, "2": 3 })), undefined);
  const proto = new RegoObject().set("__proto__", 1);
  assert.equal(compactJSONText(proto), undefined);
  assert.equal(compactJSONText(new RegoObject().set(1, "one")), undefined);
  assert.equal(compactJSONText([fromJSON({ x: new RegoObject().set(["k"], 1) })]), undefined);
});
