/**
 * Go values as templates see them, and Go's ways of printing them (fmt's `%v`) and of
 * encoding them (encoding/json), so that a rendering prints what Ollama's would.
 *
 * - `undefined` is Go's invalid value (a missing map key): it prints `<no value>`.
 * - `null` is nil; `NIL_SLICE` a nil slice (prints `[]`, encodes `null`).
 * - JS numbers are Go ints; `GoFloat` wraps a float64 (numbers decoded from JSON are).
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

/** strconv.FormatFloat(x, 'g', -1, 64): shortest digits, exponent form outside [1e-4, 1e21). */
export function formatFloat(x: number, expAt = 21): string {
  if (Number.isNaN(x)) return "NaN";
  if (!Number.isFinite(x)) return x > 0 ? "+Inf" : "-Inf";
  if (x === 0) return Object.is(x, -0) ? "-0" : "0";
  const [mantissa, expText] = x.toExponential().split("e") as [string, string];
  const exp = Number(expText);
  if (exp < -4 || exp >= expAt) {
    const digits = Math.abs(exp) < 10 ? `0${Math.abs(exp)}` : `${Math.abs(exp)}`;
    return `${mantissa}e${exp < 0 ? "-" : "+"}${digits}`;
  }
  const digits = mantissa.replace("-", "").replace(".", "");
  const sign = x < 0 ? "-" : "";
  if (exp < 0) return `${sign}0.${"0".repeat(-exp - 1)}${digits}`;
  if (digits.length <= exp + 1) return sign + digits + "0".repeat(exp + 1 - digits.length);
  return `${sign}${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
}

function sortedKeys(m: object): string[] {
  return Object.keys(m).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** fmt's `%v` of a value (`top`: the operand itself, not an element inside it). */
export function formatValue(v: unknown, top = true): string {
  if (v instanceof GoStruct || v instanceof GoNamed) {
    if (v.type.string) return v.type.string(v);
  }
  const u = underlying(v);
  if (u === undefined || u === null) return "<nil>";
  if (typeof u === "string") return u;
  if (typeof u === "boolean") return String(u);
  if (typeof u === "number") return Number.isInteger(u) ? String(u) : formatFloat(u, 6);
  if (u instanceof GoFloat) return formatFloat(u.value, 6);
  if (Array.isArray(u) || u instanceof Uint8Array)
    return `[${Array.from(u as ArrayLike<unknown>, (e) => formatValue(e, false)).join(" ")}]`;
  if (u instanceof GoStruct) {
    const body = (u.type.fields ?? []).map((f) => formatValue(u.fields[f.name], false)).join(" ");
    return `${u.type.pointer && top ? "&" : ""}{${body}}`;
  }
  const m = u as Record<string, unknown>;
  return `map[${sortedKeys(m)
    .map((k) => `${k}:${formatValue(m[k], false)}`)
    .join(" ")}]`;
}

/** fmt.Sprint: operands printed with `%v`, a space between two that are not strings. */
export function sprint(args: readonly unknown[]): string {
  let out = "";
  args.forEach((a, i) => {
    const isString = kindOf(a) === "string" && !(a instanceof GoNamed);
    const prevString =
      i > 0 && kindOf(args[i - 1]) === "string" && !(args[i - 1] instanceof GoNamed);
    if (i > 0 && !isString && !prevString) out += " ";
    out += formatValue(a);
  });
  return out;
}

/** fmt.Sprintln: operands with spaces between, then a newline. */
export function sprintln(args: readonly unknown[]): string {
  return `${args.map((a) => formatValue(a)).join(" ")}\n`;
}

/** Go's JSON string: HTML-safe (`<`, `>`, `&` escaped) and U+2028/U+2029 escaped. */
export function jsonString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const ch = s[i] as string;
    if (c >= 0xd800 && c <= 0xdfff) {
      const next = s.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        out += ch + s[++i];
      } else out += "\\ufffd";
    } else if (ch === '"' || ch === "\\") out += `\\${ch}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (c < 0x20 || ch === "<" || ch === ">" || ch === "&" || c === 0x2028 || c === 0x2029)
      out += `\\u${c.toString(16).padStart(4, "0")}`;
    else out += ch;
  }
  return `${out}"`;
}

function isEmptyValue(v: unknown): boolean {
  const u = underlying(v);
  if (u instanceof GoStruct) return false;
  return !isTrue(u);
}

/** encoding/json.Marshal; throws on values JSON cannot hold (NaN, infinities). */
export function goJson(v: unknown): string {
  if ((v instanceof GoStruct || v instanceof GoNamed) && v.type.marshal)
    return goJson(v.type.marshal(v));
  const u = underlying(v);
  if (u === undefined || u === null || u === NIL_SLICE) return "null";
  if (typeof u === "string") return jsonString(u);
  if (typeof u === "boolean") return String(u);
  if (typeof u === "number" || u instanceof GoFloat) {
    const n = numberOf(u);
    if (!Number.isFinite(n)) throw new Error(`json: unsupported value: ${formatFloat(n)}`);
    return String(n);
  }
  if (u instanceof Uint8Array) return jsonString(Buffer.from(u).toString("base64"));
  if (Array.isArray(u)) return `[${u.map((e) => goJson(e)).join(",")}]`;
  if (u instanceof GoStruct) {
    const parts: string[] = [];
    for (const f of u.type.fields ?? []) {
      const value = u.fields[f.name];
      if (f.omitEmpty && isEmptyValue(value)) continue;
      parts.push(`${jsonString(f.json)}:${goJson(value)}`);
    }
    return `{${parts.join(",")}}`;
  }
  const m = u as Record<string, unknown>;
  return `{${sortedKeys(m)
    .map((k) => `${jsonString(k)}:${goJson(m[k])}`)
    .join(",")}}`;
}

/** A value decoded from JSON as Go decodes into `any`: numbers become float64. */
export function fromJson(v: unknown): unknown {
  if (typeof v === "number") return new GoFloat(v);
  if (Array.isArray(v)) return v.map(fromJson);
  if (typeof v === "object" && v !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, e] of Object.entries(v)) out[k] = fromJson(e);
    return out;
  }
  return v;
}

/** A function's failure, in Go's words (the evaluator adds `error calling X:`). */
export class FuncError extends Error {}

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
