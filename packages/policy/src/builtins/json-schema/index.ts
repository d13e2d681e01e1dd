/**
 * json.verify_schema and json.match_schema: JSON Schema (drafts 4, 6, 7) checks with the
 * results and messages OPA produces through gojsonschema. Schemas and documents may be given
 * as values or as JSON text.
 */
import { BuiltinError } from "../../errors.js";
import { checkSchema, SchemaError } from "../../lib/json-schema/schema-check.js";
import { type SchemaFailure, Validator } from "../../lib/json-schema/validate.js";
import { RegoObject, type Value } from "../../value/value.js";
import { readJSON } from "../jwt/json-reader.js";
import type { BuiltinDef } from "../registry-types.js";

/** A schema or document operand: JSON text is parsed, objects are used as they are. */
function operandValue(v: Value): Value {
  if (v instanceof RegoObject) return v;
  if (typeof v !== "string") throw new SchemaError("wrong type, expected string or object");
  try {
    return readJSON(v);
  } catch {
    throw new SchemaError("invalid JSON string");
  }
}

/** The schema operand, checked to be a well-formed schema. */
function loadSchema(v: Value): Value {
  const schema = operandValue(v);
  checkSchema(schema);
  return schema;
}

export const jsonSchemaBuiltins: BuiltinDef[] = [
  {
    name: "json.verify_schema",
    args: ["string | object"],
    result: "array",
    impl: ([schema]) => {
      try {
        loadSchema(schema as Value);
        return [true, null];
      } catch (e) {
        if (e instanceof SchemaError) return [false, `jsonschema: ${e.message}`];
        throw e;
      }
    },
  },
  {
    name: "json.match_schema",
    args: ["string | object", "string | object"],
    result: "array",
    impl: ([document, schema]) => {
      const fn = "json.match_schema";
      let failures: SchemaFailure[];
      try {
        const doc = operandValue(document as Value);
        failures = new Validator(loadSchema(schema as Value)).validate(doc);
      } catch (e) {
        if (e instanceof SchemaError) throw new BuiltinError(`${fn}: ${e.message}`);
        throw e;
      }
      const errors = failures.map((f) =>
        RegoObject.fromEntries([
          ["error", `${f.field}: ${f.desc}`],
          ["type", f.type],
          ["field", f.field],
          ["desc", f.desc],
        ]),
      );
      return [errors.length === 0, errors];
    },
  },
];
