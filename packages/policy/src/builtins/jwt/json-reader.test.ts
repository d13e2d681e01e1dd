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
  });
});
