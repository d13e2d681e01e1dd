// encoding/json's scanner: values through a builder, Go's error wording, and error sites.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type JsonBuilder, JsonDepthError, JsonSyntaxError, parseJson } from "./parse.js";

/** Plain JavaScript values, numbers kept as their text so that the test sees what came. */
const PLAIN: JsonBuilder<unknown, Record<string, unknown>> = {
  string: (s) => s,
  number: (text) => `#${text}`,
  literal: (v) => v,
  array: (items) => items,
  newObject: () => ({}),
  set: (object, key, value) => {
    object[key] = value;
  },
  object: (object) => object,
};

function errorOf(text: string, maxDepth?: number): JsonSyntaxError {
  try {
    parseJson(text, PLAIN, maxDepth);
  } catch (e) {
    assert.ok(e instanceof JsonSyntaxError);
    return e;
  }
  assert.fail(`parsed: ${text}`);
}

describe("parseJson", () => {
  it("hands numbers over as written and builds nested containers", () => {
    assert.deepEqual(parseJson(' {"a": [1.50, -0, 2e3, true, null], "b": {}, "c": []} ', PLAIN), {
      a: ["#1.50", "#-0", "#2e3", true, null],
      b: {},
      c: [],
    });
  });

  it("decodes escapes, pairs surrogates and turns a lone half into U+FFFD", () => {
    assert.equal(parseJson('"\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e5"', PLAIN), '"\\/\b\f\n\r\tå');
    assert.equal(parseJson('"\\ud83d\\ude00 \\ud800x \\udc00"', PLAIN), "\u{1F600} \ufffdx \ufffd");
  });

  it("words errors as Go's decoder does", () => {
    const cases: [string, string][] = [
      ["", "unexpected end of JSON input"],
      ["[1,", "unexpected end of JSON input"],
      ['{"a": }', "invalid character '}' looking for beginning of value"],
      ["[1 2]", "invalid character '2' after array element"],
      ['{"a":1 "b"}', "invalid character '\"' after object key:value pair"],
      ["{1:2}", "invalid character '1' looking for beginning of object key string"],
      ['{"a" 1}', "invalid character '1' after object key"],
      ["1 2", "invalid character '2' after top-level value"],
      ["trux", "invalid character 'x' in literal true (expecting 'e')"],
      ["-x", "invalid character 'x' in numeric literal"],
      ["1.x", "invalid character 'x' after decimal point in numeric literal"],
      ["1e", "invalid character ' ' in exponent of numeric literal"],
      ['"a\u0001"', "invalid character '\\x01' in string literal"],
      ['"\\x"', "invalid character 'x' in string escape code"],
      ['"\\u12g4"', "invalid character 'g' in \\u hexadecimal character escape"],
      ["é", "invalid character 'Ã' looking for beginning of value"],
      ["'", "invalid character '\\'' looking for beginning of value"],
    ];
    for (const [text, message] of cases) assert.equal(errorOf(text).message, message, text);
  });

  it("says where a token-matching reader would stop", () => {
    assert.deepEqual(errorOf("[tru]").at, { site: "value", offset: 1, tokenStart: 1 });
    assert.deepEqual(errorOf("[-]").at, { site: "number", offset: 1, tokenStart: 1 });
    assert.deepEqual(errorOf('{"a": 1.}').at, { site: "after-member", offset: 7, tokenStart: 6 });
    assert.deepEqual(errorOf("[2e+]").at, { site: "after-element", offset: 2, tokenStart: 1 });
    assert.deepEqual(errorOf(' "a\\q"').at, { site: "string", offset: 4, tokenStart: 1 });
    assert.deepEqual(errorOf('{"a" 1}').at, { site: "colon", offset: 5, tokenStart: 5 });
  });

  it("refuses nesting past the maximum without recursing", () => {
    const deep = (n: number) => "[".repeat(n) + "]".repeat(n);
    assert.equal((parseJson(deep(3), PLAIN, 3) as unknown[]).length, 1);
    const e = errorOf(deep(4), 3);
    assert.ok(e instanceof JsonDepthError);
    assert.equal(e.message, "exceeded max depth of 3");
    assert.deepEqual(e.at, { site: "depth", offset: 3, tokenStart: 3 });
    assert.ok(Array.isArray(parseJson(deep(9_000), PLAIN)));
    assert.ok(errorOf(deep(10_001)) instanceof JsonDepthError);
  });
});
