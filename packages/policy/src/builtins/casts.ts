/**
 * Conversions: `to_number`, and the deprecated `cast_*` family (kept registered for v0
 * policies, as OPA 1.x still lists them; the compiler rejects them in v1 modules).
 */
import { BuiltinError, BuiltinTypeError } from "../errors.js";
import { isNumber, parseNumber } from "../value/number.js";
import { RegoObject, RegoSet, type Value } from "../value/value.js";
import { oneOfError, operandError } from "./args.js";
import type { BuiltinDef } from "./registry-types.js";

/** Decimal float syntax accepted by Go's strconv.ParseFloat (which OPA uses), minus hex. */
const decimalNumber = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
/** Words ParseFloat accepts but that are not Rego numbers. */
const nonFinite = /^[+-]*(inf|infinity|nan)$/i;

/** `to_number` of a string: OPA's ParseFloat syntax, exact for integers. */
function numberFromString(text: string): Value {
  if (nonFinite.test(text)) {
    throw new BuiltinTypeError("to_number: operand 1 must be valid number string but got string");
  }
  const quoted = JSON.stringify(text);
  if (!decimalNumber.test(text)) {
    throw new BuiltinError(`to_number: strconv.ParseFloat: parsing ${quoted}: invalid syntax`);
  }
  const n = parseNumber(text.replace(/^\+/, ""));
  if (n === undefined || (typeof n === "number" && !Number.isFinite(n))) {
    throw new BuiltinError(`to_number: strconv.ParseFloat: parsing ${quoted}: value out of range`);
  }
  // "-0" parses to negative zero, which Rego does not have.
  return n === 0 ? 0 : n;
}

function toNumber(v: Value): Value {
  if (v === null) return 0;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (isNumber(v)) return v;
  if (typeof v === "string") return numberFromString(v);
  throw oneOfError("to_number", 1, ["null", "boolean", "number", "string"], v);
}

/** A deprecated `cast_<kind>` that accepts only its own kind (and returns it unchanged). */
function identityCast(kind: string, accepts: (v: Value) => boolean): BuiltinDef {
  const name = `cast_${kind}`;
  return {
    name,
    args: [kind],
    result: kind,
    impl: ([v]) => {
      if (!accepts(v as Value)) throw operandError(name, 1, kind, v as Value);
      return v;
    },
  };
}

export const castsBuiltins: BuiltinDef[] = [
  {
    name: "to_number",
    args: ["null | boolean | number | string"],
    result: "number",
    impl: ([v]) => toNumber(v as Value),
  },
  {
    name: "cast_array",
    args: ["array | set"],
    result: "array",
    impl: ([v]) => {
      if (Array.isArray(v)) return v;
      if (v instanceof RegoSet) return [...v.sorted()];
      throw oneOfError("cast_array", 1, ["array", "set"], v as Value);
    },
  },
  {
    name: "cast_set",
    args: ["array | set"],
    result: "set",
    impl: ([v]) => {
      if (v instanceof RegoSet) return v;
      if (Array.isArray(v)) return RegoSet.of(v);
      throw oneOfError("cast_set", 1, ["array", "set"], v as Value);
    },
  },
  identityCast("string", (v) => typeof v === "string"),
  identityCast("boolean", (v) => typeof v === "boolean"),
  identityCast("null", (v) => v === null),
  identityCast("object", (v) => v instanceof RegoObject),
];
