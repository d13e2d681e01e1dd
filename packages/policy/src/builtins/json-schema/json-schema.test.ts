import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { builtinError, callBuiltin, callJSON } from "../testing/call-builtin.js";

const schema = {
  type: "object",
  properties: {
    id: { type: "integer" },
    tags: { type: "array", items: { type: "string" }, maxItems: 2 },
  },
  required: ["id"],
  additionalProperties: false,
};

describe("json.verify_schema", () => {
  test("accepts schemas as objects or JSON text", () => {
    assert.equal(callJSON("json.verify_schema", { type: "boolean" }), "[true,null]");
    assert.equal(callJSON("json.verify_schema", '{"type": "boolean"}'), "[true,null]");
  });

  test("explains an unknown primitive type", () => {
    assert.equal(
      callJSON("json.verify_schema", { type: "unknown_type" }),
      '[false,"jsonschema: has a primitive type that is NOT VALID -- given: /unknown_type/ Expected valid values are:[array boolean integer number null object string]"]',
    );
    assert.equal(callJSON("json.verify_schema", { minLength: -1 }).startsWith("[false,"), true);
  });

  test("answers false for operands that are neither JSON text nor objects", () => {
    assert.equal(
      callJSON("json.verify_schema", 5),
      '[false,"jsonschema: wrong type, expected string or object"]',
    );
    assert.equal(
      callJSON("json.verify_schema", "{nope"),
      '[false,"jsonschema: invalid JSON string"]',
    );
  });
});

describe("json.match_schema", () => {
  test("a matching document gives true and no errors", () => {
    assert.equal(callJSON("json.match_schema", { id: 5, tags: ["a"] }, schema), "[true,[]]");
    assert.equal(callJSON("json.match_schema", '{"id": 5}', JSON.stringify(schema)), "[true,[]]");
  });

  test("reports each failure with its field, type and description", () => {
    assert.equal(
      callJSON("json.match_schema", { id: "foo" }, schema),
      '[false,[{"desc":"Invalid type. Expected: integer, given: string","error":"id: Invalid type. Expected: integer, given: string","field":"id","type":"invalid_type"}]]',
    );
    assert.equal(
      callJSON("json.match_schema", {}, schema),
      '[false,[{"desc":"id is required","error":"(root): id is required","field":"(root)","type":"required"}]]',
    );
    const out = callJSON("json.match_schema", { id: 1, tags: ["a", 2, "c"], x: 1 }, schema);
    assert.match(out, /"field":"tags","type":"array_max_items"/);
    assert.match(out, /"field":"tags.1","type":"invalid_type"/);
    assert.match(out, /"desc":"Additional property x is not allowed"/);
  });

  test("follows local $ref pointers and combinators", () => {
    const s = {
      definitions: { pos: { type: "number", exclusiveMinimum: 0 } },
      properties: {
        v: { anyOf: [{ $ref: "#/definitions/pos" }, { type: "string", pattern: "^n" }] },
      },
    };
    assert.equal(callJSON("json.match_schema", { v: 3 }, s), "[true,[]]");
    assert.equal(callJSON("json.match_schema", { v: "no" }, s), "[true,[]]");
    assert.match(callJSON("json.match_schema", { v: -1 }, s), /"field":"v","type":"number_any_of"/);
  });

  test("a document that is not JSON text or an object is a builtin error", () => {
    assert.throws(
      () => callBuiltin("json.match_schema", ["{nope", schema]),
      builtinError("json.match_schema: invalid JSON string"),
    );
    assert.throws(
      () => callBuiltin("json.match_schema", [[1], schema]),
      builtinError("json.match_schema: wrong type, expected string or object"),
    );
  });

  test("an invalid schema is a builtin error", () => {
    assert.throws(
      () => callBuiltin("json.match_schema", [{}, { type: "unknown" }]),
      builtinError(
        "json.match_schema: has a primitive type that is NOT VALID -- given: /unknown/ Expected valid values are:[array boolean integer number null object string]",
      ),
    );
  });
});
