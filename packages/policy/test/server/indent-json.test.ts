/** `indentJsonText`: `?pretty` answers indented from the evaluation's JSON text, exactly. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { indentJsonText, jsonText } from "../../src/value/json-text.js";

describe("indentJsonText", () => {
  it("indents as the JSON writer does, empty objects and arrays kept on one line", () => {
    const samples: unknown[] = [
      { a: [1, 2, { b: {} }], c: [], d: "x", e: null, f: true },
      [[], [[]], {}, { "": "" }],
      "plain",
      42,
      { "k:{[,]}": 'v "quoted" \\ back,slash {}', u: "\u00e9\u0001" },
    ];
    for (const sample of samples) {
      assert.equal(indentJsonText(JSON.stringify(sample)), jsonText(sample, true));
    }
  });

  it("keeps numbers as written and keys in their order", () => {
    assert.equal(
      indentJsonText('{"z":123456789012345678901234567890,"a":0.10000000000000000001}'),
      '{\n  "z": 123456789012345678901234567890,\n  "a": 0.10000000000000000001\n}\n',
    );
  });
});
