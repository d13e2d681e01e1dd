/**
 * Go values as fmt, text/template and encoding/json see them (print.ts prints them with `%v`,
 * json/marshal.ts encodes them).
 *
 * - `undefined` is Go's invalid value (a missing map key): it prints `<no value>`.
 * - `null` is nil; `NIL_SLICE` a nil slice (prints `[]`, encodes `null`).
 * - JS integers are Go ints; `GoFloat` wraps a float64 (numbers decoded from JSON are), and
 *   a non-integer JS number is a float64 too.
 * - Plain objects are `map[string]any`, arrays are slices.
 * - `GoStruct` is a struct (fields by name, declaration order); `GoNamed` a named non-struct
 *   type (a slice or map) with methods. Both may carry `String()` and a JSON encoding.
 */

export class GoFloat {
  constructor(readonly value: number) {}
}

export interface GoField {
  name: string;
  json: string;
  omitEmpty?: boolean;
}

export interface GoType {
  name: string;
  /** Struct fields in declaration order (structs only). */
  fields?: readonly GoField[];
  /** Held through a pointer (`*api.Message`): `%v` prints `&{...}`. */
  pointer?: boolean;
  /** The type's `String()` method, used by fmt. */
  string?: (v: GoStruct | GoNamed) => string;
  /** The value encoding/json writes instead (a `MarshalJSON` method). */
  marshal?: (v: GoStruct | GoNamed) => unknown;
}

export class GoStruct {
  constructor(
    readonly type: GoType,
    readonly fields: Readonly<Record<string, unknown>>,
  ) {}
}

export class GoNamed {
  constructor(
    readonly type: GoType,
    readonly value: unknown,
  ) {}
}

/** A nil slice: empty and false like `[]`, but `null` in JSON. */
export const NIL_SLICE: readonly unknown[] = Object.freeze([]);

export type Kind =
  | "invalid"
  | "nil"
  | "bool"
  | "int"
  | "float"
  | "string"
  | "slice"
  | "map"
  | "struct";

/** The value underneath a named type. */
export function underlying(v: unknown): unknown {
  return v instanceof GoNamed ? v.value : v;
}

export function kindOf(v: unknown): Kind {
  const u = underlying(v);
  if (u === undefined) return "invalid";
  if (u === null) return "nil";
  if (typeof u === "boolean") return "bool";
  if (typeof u === "number") return Number.isInteger(u) ? "int" : "float";
  if (u instanceof GoFloat) return "float";
  if (typeof u === "string") return "string";
  if (Array.isArray(u) || u instanceof Uint8Array) return "slice";
  if (u instanceof GoStruct) return "struct";
  return "map";
}

/** The JS number of an int or float value. */
export function numberOf(v: unknown): number {
  const u = underlying(v);
  return u instanceof GoFloat ? u.value : (u as number);
}

/** Go's truth: false, 0, nil, and empty strings, slices and maps are false; structs true. */
export function isTrue(v: unknown): boolean {
  const u = underlying(v);
  switch (kindOf(u)) {
    case "invalid":
    case "nil":
      return false;
    case "bool":
      return u as boolean;
    case "int":
    case "float":
      return numberOf(u) !== 0;
    case "string":
      return (u as string).length > 0;
    case "slice":
      return (u as ArrayLike<unknown>).length > 0;
    case "map":
      return Object.keys(u as object).length > 0;
    default:
      return true;
  }
}

/** Go's name of a value's type, for error messages. */
export function typeName(v: unknown): string {
  if (v instanceof GoStruct || v instanceof GoNamed)
    return `${v.type.pointer ? "*" : ""}${v.type.name}`;
  switch (kindOf(v)) {
    case "invalid":
      return "<nil>";
    case "nil":
      return "interface {}";
    case "float":
      return "float64";
    case "slice":
      return v instanceof Uint8Array ? "[]uint8" : "[]interface {}";
    case "map":
      return "map[string]interface {}";
    default:
      return kindOf(v);
  }
}
