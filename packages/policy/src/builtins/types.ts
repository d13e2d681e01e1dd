/**
 * Type predicates (`is_number`, `is_string`, …) and `type_name`. Each predicate is false,
 * never undefined, for a value of another type.
 */
import { type TypeName, typeName, type Value } from "../value/value.js";
import type { BuiltinDef } from "./registry-types.js";

/** `is_<kind>`: true exactly when the operand's type is `kind`. */
function predicate(kind: TypeName): BuiltinDef {
  return {
    name: `is_${kind}`,
    args: ["any"],
    result: "boolean",
    impl: ([v]) => typeName(v as Value) === kind,
  };
}

const kinds: TypeName[] = ["number", "string", "boolean", "array", "set", "object", "null"];

export const typesBuiltins: BuiltinDef[] = [
  ...kinds.map(predicate),
  {
    name: "type_name",
    args: ["any"],
    result: "string",
    impl: ([v]) => typeName(v as Value),
  },
];
