import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { fromJSON } from "../../value/value.js";
import { checkSchema, SchemaError } from "./schema-check.js";
import { Validator } from "./validate.js";

/** The failures of `doc` against `schema`, both given as plain JSON data. */
function failures(schema: unknown, doc: unknown) {
  return new Validator(fromJSON(schema)).validate(fromJSON(doc));
}

describe("json-schema validation (gojsonschema's results)", () => {
  test("a document that matches has no failures", () => {
    assert.deepEqual(failures({ type: "object", required: ["id"] }, { id: 1 }), []);
  });

  test("a missing required property is reported on its parent, (root) at the top", () => {
    assert.deepEqual(failures({ type: "object", required: ["id"] }, {}), [
      { type: "required", field: "(root)", desc: "id is required" },
    ]);
  });

  test("a wrong type names what was expected and what was given", () => {
    assert.deepEqual(failures({ properties: { id: { type: "integer" } } }, { id: "x" }), [
      { type: "invalid_type", field: "id", desc: "Invalid type. Expected: integer, given: string" },
    ]);
  });

  test("additional properties are refused one by one", () => {
    assert.deepEqual(failures({ additionalProperties: false }, { a: 1 }), [
      {
        type: "additional_property_not_allowed",
        field: "(root)",
        desc: "Additional property a is not allowed",
      },
    ]);
  });

  test("nested fields are joined with dots, array items by index", () => {
    const schema = { properties: { tags: { items: { type: "string" } } } };
    assert.deepEqual(failures(schema, { tags: ["a", 2] }), [
      {
        type: "invalid_type",
        field: "tags.1",
        desc: "Invalid type. Expected: string, given: integer",
      },
    ]);
  });
});

describe("json-schema schema checks", () => {
  test("a well-formed schema passes", () => {
    assert.doesNotThrow(() => checkSchema(fromJSON({ type: "string", minLength: 1 })));
  });

  test("an unknown primitive type is a SchemaError listing the valid ones", () => {
    assert.throws(
      () => checkSchema(fromJSON({ type: "unknown_type" })),
      (e: unknown) =>
        e instanceof SchemaError &&
        e.message ===
          "has a primitive type that is NOT VALID -- given: /unknown_type/ Expected valid values are:[array boolean integer number null object string]",
    );
  });
});
