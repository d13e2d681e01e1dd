// JSON text read into Rego values: exact integers, last repeated key, range and depth errors.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { JsonDepthError, JsonSyntaxError } from "@quintet/gostd/json";
import { JSONRangeError, readJSON } from "./json-reader.js";
import { RegoObject, stringifyJSON } from "./value.js";

describe("readJSON", () => {
  test("keeps integers exact and lets a repeated key keep its last value", () => {
    const v = readJSON('{"n": 123456789012345678901234567890, "a": 1, "a": [2.5, "\\ud800"]}');
    assert.ok(v instanceof RegoObject);
    assert.equal(stringifyJSON(v), '{"a":[2.5,"\ufffd"],"n":123456789012345678901234567890}');
  });

  test("refuses a number beyond float range only once the text is well-formed", () => {
    assert.throws(() => readJSON("[1e999]"), {
      name: "JSONSyntaxError",
      message: "number 1e999 is out of the representable range",
    });
    assert.ok(isRangeError(() => readJSON("[1e999]")));
    assert.throws(
      () => readJSON("[1e999,]"),
      (e) => !(e instanceof JSONRangeError),
    );
  });

  test("refuses malformed text and nesting past maxDepth with Go's wording", () => {
    assert.throws(() => readJSON("[1,]"), {
      message: "invalid character ']' looking for beginning of value",
    });
    assert.throws(
      () => readJSON("[[1]]", { maxDepth: 1 }),
      (e) => e instanceof JsonDepthError,
    );
    assert.throws(
      () => readJSON("{"),
      (e) => e instanceof JsonSyntaxError,
    );
  });
});

function isRangeError(f: () => unknown): boolean {
  try {
    f();
  } catch (e) {
    return e instanceof JSONRangeError;
  }
  return false;
}
