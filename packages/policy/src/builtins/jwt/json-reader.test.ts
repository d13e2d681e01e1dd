import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { RegoObject, stringifyJSON } from "../../value/value.js";
import { readJSON } from "./json-reader.js";

describe("readJSON", () => {
  test("keeps big integers exact and lets a repeated key keep its last value", () => {
    const v = readJSON(
      '{"n": 123456789012345678901234567890, "f": -1.5e3, "a": 1, "a": [true, null, "x\\u00e5"]}',
    );
    assert.equal(
      stringifyJSON(v),
      '{"a":[true,null,"xå"],"f":-1500,"n":123456789012345678901234567890}',
    );
    assert.ok(v instanceof RegoObject);
  });

  test("rejects malformed text with the offset of the problem", () => {
    assert.throws(() => readJSON('{"a": }'), { name: "SyntaxError", message: /offset 6/ });
    assert.throws(() => readJSON("[1,]"), SyntaxError);
    assert.throws(() => readJSON('"unterminated'), SyntaxError);
    assert.throws(() => readJSON("1 2"), { message: /unexpected text after the value/ });
    assert.throws(() => readJSON(""), { message: /unexpected end of JSON input/ });
    const cases: [string, string][] = [
      ["[1 2]", "expected ',' or ']' at offset 4"],
      ["[1", "expected ',' or ']' at offset 3"],
      ['{"a":1 "b"}', "expected ',' or '}' at offset 8"],
      ['{"a" 1}', "expected ':' at offset 5"],
      ["{1:2}", "expected a string key at offset 1"],
      ["[-]", "invalid number at offset 1"],
      ["[1.]", "expected ',' or ']' at offset 3"],
      ["tru", 'invalid character "t" at offset 0'],
      ['"a\\q"', "invalid string at offset 0"],
      ['{"a\u0001": 1}', "invalid string at offset 1"],
      ["[".repeat(10_001), "exceeded max depth of 10000 at offset 10000"],
    ];
    for (const [text, message] of cases)
      assert.throws(() => readJSON(text), { name: "SyntaxError", message }, text);
  });

  test("keeps numbers beyond float range as infinities", () => {
    assert.deepEqual(readJSON("[1e999, -1e999]"), [Infinity, -Infinity]);
  });
});
