/**
 * Operand coercion with OPA's error messages: `<builtin>: operand <n> must be <type> but got
 * <type>`. Positions are 1-based, as OPA numbers them.
 */
import { BuiltinTypeError } from "../errors.js";
import {
  isInteger,
  isNumber,
  type PlainNumber,
  plainNumber,
  type RegoNumber,
} from "../value/number.js";
import { RegoObject, RegoSet, typeName, type Value } from "../value/value.js";

/** A type error for operand `pos` of `fn`. */
export function operandError(fn: string, pos: number, want: string, got: Value): BuiltinTypeError {
  return new BuiltinTypeError(`${fn}: operand ${pos} must be ${want} but got ${typeName(got)}`);
}

export function asString(fn: string, v: Value, pos: number): string {
  if (typeof v !== "string") throw operandError(fn, pos, "string", v);
  return v;
}

export function asNumber(fn: string, v: Value, pos: number): PlainNumber {
  if (!isNumber(v)) throw operandError(fn, pos, "number", v);
  return plainNumber(v);
}

/** A number operand with the decimal text OPA keeps for it, for the arithmetic operators. */
export function asExactNumber(fn: string, v: Value, pos: number): RegoNumber {
  if (!isNumber(v)) throw operandError(fn, pos, "number", v);
  return v;
}

/** An integer operand; a float gets OPA's "integer number but got floating-point number". */
export function asInteger(fn: string, v: Value, pos: number): PlainNumber {
  const n = asNumber(fn, v, pos);
  if (!isInteger(n)) {
    throw new BuiltinTypeError(
      `${fn}: operand ${pos} must be integer number but got floating-point number`,
    );
  }
  return n;
}

export function asBoolean(fn: string, v: Value, pos: number): boolean {
  if (typeof v !== "boolean") throw operandError(fn, pos, "boolean", v);
  return v;
}

export function asArray(fn: string, v: Value, pos: number): Value[] {
  if (!Array.isArray(v)) throw operandError(fn, pos, "array", v);
  return v;
}

export function asSet(fn: string, v: Value, pos: number): RegoSet {
  if (!(v instanceof RegoSet)) throw operandError(fn, pos, "set", v);
  return v;
}

export function asObject(fn: string, v: Value, pos: number): RegoObject {
  if (!(v instanceof RegoObject)) throw operandError(fn, pos, "object", v);
  return v;
}

/** OPA's wording for operands that accept several kinds: `one of {array, set}`. */
export function oneOfError(fn: string, pos: number, kinds: string[], got: Value): BuiltinTypeError {
  return new BuiltinTypeError(
    `${fn}: operand ${pos} must be one of {${kinds.join(", ")}} but got ${typeName(got)}`,
  );
}
