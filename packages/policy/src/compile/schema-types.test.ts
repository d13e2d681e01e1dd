import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { SchemaError, schemaType, typeText } from "./schema-types.js";

const text = (schema: unknown) => typeText(schemaType(schema));

describe("schemaType: JSON Schema to Rego types as OPA reads them", () => {
  it("objects with properties have those keys; required and additionalProperties do not count", () => {
    assert.equal(
      text({
        type: "object",
        properties: { b: { type: "integer" }, a: { type: "string" } },
        required: ["a"],
        additionalProperties: true,
      }),
      "object<a: string, b: number>",
    );
    assert.equal(
      text({ type: "object", additionalProperties: { type: "string" } }),
      "object[any: any]",
    );
  });

  it("takes the first known of several types, and any for enums or null alone", () => {
    assert.equal(text({ type: ["null", "string"] }), "string");
    assert.equal(text({ enum: ["a", "b"] }), "any");
    assert.equal(text({ type: "null" }), "any");
  });

  it("arrays take their items; properties or items alone imply the type", () => {
    assert.equal(text({ type: "array", items: { type: "boolean" } }), "array[boolean]");
    assert.equal(text({ items: { type: "number" } }), "array[number]");
    assert.equal(text({ properties: { x: {} } }), "object<x: any>");
  });

  it("anyOf is a union; allOf merges object properties", () => {
    assert.equal(text({ anyOf: [{ type: "string" }, { type: "number" }] }), "any<string, number>");
    assert.equal(
      text({
        allOf: [
          { type: "object", properties: { a: { type: "string" } } },
          { properties: { b: { type: "number" } } },
        ],
      }),
      "object<a: string, b: number>",
    );
    assert.throws(
      () => schemaType({ allOf: [{ type: "string" }, { type: "number" }] }),
      (e) => e instanceof SchemaError && /unable to merge these schemas/.test(e.message),
    );
  });

  it("follows local $refs, recursive ones too, and refuses remote ones", () => {
    const tree = {
      $defs: {
        node: {
          type: "object",
          properties: { kids: { type: "array", items: { $ref: "#/$defs/node" } } },
        },
      },
      $ref: "#/$defs/node",
    };
    assert.equal(text(tree), "object<kids: array[object[any: any]]>");
    assert.throws(() => schemaType({ $ref: "#/definitions/none" }), SchemaError);
    assert.throws(() => schemaType({ $ref: "https://example.com/s.json" }), SchemaError);
    assert.throws(() => schemaType([1]), SchemaError);
  });
});
