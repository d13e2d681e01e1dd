/**
 * Checks that a JSON Schema (drafts 4, 6, 7) is itself well formed, with the messages of the
 * Go library OPA uses (gojsonschema), before any document is validated against it.
 */
import { isInteger, isNumber, toFloat } from "../../value/number.js";
import { RegoObject, type Value } from "../../value/value.js";

export class SchemaError extends Error {}

const validTypes = ["array", "boolean", "integer", "number", "null", "object", "string"];

function invalidType(expected: string, given: string): SchemaError {
  return new SchemaError(`Invalid type. Expected: ${expected}, given: ${given}`);
}

function checkTypeKeyword(t: Value): void {
  const names = Array.isArray(t) ? t : [t];
  if (typeof t !== "string" && !Array.isArray(t))
    throw invalidType("string/array of strings", "type");
  for (const name of names) {
    if (typeof name !== "string") throw invalidType("string", "type");
    if (!validTypes.includes(name)) {
      throw new SchemaError(
        `has a primitive type that is NOT VALID -- given: /${name}/ Expected valid values are:[${validTypes.join(" ")}]`,
      );
    }
  }
}

const schemaMaps = ["properties", "patternProperties", "definitions", "$defs"];
const schemaLists = ["allOf", "anyOf", "oneOf"];
const schemaSingles = [
  "not",
  "additionalProperties",
  "additionalItems",
  "propertyNames",
  "contains",
  "if",
  "then",
  "else",
];
const nonNegativeInts = [
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "minProperties",
  "maxProperties",
];

function checkNumbers(schema: RegoObject): void {
  for (const key of nonNegativeInts) {
    const v = schema.get(key);
    if (v === undefined) continue;
    if (!isNumber(v) || !isInteger(v)) throw new SchemaError(`${key} must be of an integer`);
    if (toFloat(v) < 0) throw new SchemaError(`${key} must be greater than or equal to 0`);
  }
  for (const key of ["minimum", "maximum"]) {
    const v = schema.get(key);
    if (v !== undefined && !isNumber(v)) throw new SchemaError(`${key} must be of a number`);
  }
  const multipleOf = schema.get("multipleOf");
  if (multipleOf !== undefined && (!isNumber(multipleOf) || toFloat(multipleOf) <= 0)) {
    throw new SchemaError("multipleOf must be strictly greater than 0");
  }
}

function checkPattern(pattern: Value | undefined, key: string): void {
  if (pattern === undefined) return;
  if (typeof pattern !== "string") throw invalidType("string", key);
  try {
    new RegExp(pattern, "u");
  } catch {
    throw new SchemaError(`${key} must be a valid regex`);
  }
}

/** Throws SchemaError for the first problem found in `schema` or its subschemas. */
export function checkSchema(schema: Value): void {
  if (typeof schema === "boolean") return;
  if (!(schema instanceof RegoObject)) throw invalidType("object", "schema");
  const type = schema.get("type");
  if (type !== undefined) checkTypeKeyword(type);
  checkNumbers(schema);
  checkPattern(schema.get("pattern"), "pattern");
  const required = schema.get("required");
  if (
    required !== undefined &&
    (!Array.isArray(required) || required.some((r) => typeof r !== "string"))
  ) {
    throw invalidType("array of strings", "required");
  }
  const en = schema.get("enum");
  if (en !== undefined && !Array.isArray(en)) throw invalidType("array", "enum");
  for (const key of schemaMaps) {
    const m = schema.get(key);
    if (m === undefined) continue;
    if (!(m instanceof RegoObject)) throw invalidType("object", key);
    for (const [name, sub] of m.entries()) {
      if (key === "patternProperties") checkPattern(name, key);
      checkSchema(sub);
    }
  }
  for (const key of schemaLists) {
    const l = schema.get(key);
    if (l === undefined) continue;
    if (!Array.isArray(l) || l.length === 0) throw invalidType("array of schemas", key);
    for (const sub of l) checkSchema(sub);
  }
  for (const key of schemaSingles) {
    const s = schema.get(key);
    if (s !== undefined) checkSchema(s);
  }
  const items = schema.get("items");
  if (Array.isArray(items)) for (const sub of items) checkSchema(sub);
  else if (items !== undefined) checkSchema(items);
  const deps = schema.get("dependencies");
  if (deps instanceof RegoObject) {
    for (const [, dep] of deps.entries()) if (!Array.isArray(dep)) checkSchema(dep);
  }
}
