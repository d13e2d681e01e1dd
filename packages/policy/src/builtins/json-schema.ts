/**
 * json.verify_schema and json.match_schema: JSON Schema (drafts 4, 6, 7) checks with the
 * results and messages OPA produces through gojsonschema. Schemas and documents may be given
 * as values or as JSON text.
 */
import { BuiltinError } from "../errors.js";
import { RegoObject, type Value } from "../value/value.js";
import { oneOfError } from "./args.js";
import { checkSchema, SchemaError } from "./json-schema/schema-check.js";
import { Validator } from "./json-schema/validate.js";
import { readJSON } from "./jwt/json-reader.js";
import type { BuiltinDef } from "./registry-types.js";

/** A schema or document operand: JSON text is parsed, other values are used as they are. */
function operandValue(fn: string, v: Value, pos: number): Value {
  if (typeof v !== "string") {
    if (v instanceof RegoObject || typeof v === "boolean" || Array.isArray(v)) return v;
    throw oneOfError(fn, pos, ["object", "string"], v);
  }
  try {
    return readJSON(v);
  } catch (e) {
    throw new BuiltinError(`${fn}: ${(e as Error).message}`);
  }
}

/** The schema if it is well formed; otherwise the gojsonschema message. */
function loadSchema(fn: string, v: Value): Value | SchemaError {
  const schema = operandValue(fn, v, fn === "json.match_schema" ? 2 : 1);
  try {
    checkSchema(schema);
    return schema;
  } catch (e) {
    if (e instanceof SchemaError) return e;
    throw e;
  }
}

export const jsonSchemaBuiltins: BuiltinDef[] = [
  {
    name: "json.verify_schema",
    args: ["string | object"],
    result: "array",
    impl: ([schema]) => {
      const loaded = loadSchema("json.verify_schema", schema as Value);
      return loaded instanceof SchemaError
        ? [false, `jsonschema: ${loaded.message}`]
        : [true, null];
    },
  },
  {
    name: "json.match_schema",
    args: ["string | object", "string | object"],
    result: "array",
    impl: ([document, schema]) => {
      const fn = "json.match_schema";
      const loaded = loadSchema(fn, schema as Value);
      if (loaded instanceof SchemaError) throw new BuiltinError(`${fn}: ${loaded.message}`);
      const doc = operandValue(fn, document as Value, 1);
      let failures: ReturnType<Validator["validate"]>;
      try {
        failures = new Validator(loaded).validate(doc);
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
