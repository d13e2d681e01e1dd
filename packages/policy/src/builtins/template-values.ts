/**
 * Values as Go's text/template sees OPA's template variables (decoded JSON with UseNumber):
 * numbers are json.Number, a string type, so they print as written, are always "true" and
 * compare only with strings. Also the builtin functions (eq, lt, len, index, printf, ...).
 */
import { formatNumber, isNumber } from "../value/number.js";
import { RegoObject, RegoSet, type Value } from "../value/value.js";
import type { GoArg } from "./go-fmt-verbs.js";
import { goSprintf } from "./sprintf.js";

/** A number from the variables, kept as its JSON text. */
export class JsonNumber {
  constructor(readonly text: string) {}
}

/** A key absent from its map (Go's invalid value): prints `<undefined>`, is false. */
export const MISSING = Symbol("missing");

export type TValue = Value | JsonNumber | typeof MISSING;

/** An execution failure; the executor adds where it happened. */
export class TemplateExecError extends Error {
  constructor(
    message: string,
    readonly node?: string,
  ) {
    super(message);
  }
}

/** A value read from the variables: numbers become json.Number. */
export function fromData(v: Value | undefined): TValue {
  if (v === undefined) return MISSING;
  return isNumber(v) ? new JsonNumber(formatNumber(v)) : v;
}

/** Go's fmt %v of the value. */
export function show(v: TValue): string {
  if (v === MISSING) return "<undefined>";
  if (v instanceof JsonNumber) return v.text;
  if (v === null) return "<nil>";
  if (typeof v === "string") return v;
  if (typeof v === "boolean") return String(v);
  if (isNumber(v)) return formatNumber(v);
  if (Array.isArray(v)) return `[${v.map(show).join(" ")}]`;
  if (v instanceof RegoSet) return `[${v.sorted().map(show).join(" ")}]`;
  const entries = v.sortedEntries().map(([k, x]) => `${show(k)}:${show(x)}`);
  return `map[${entries.join(" ")}]`;
}

/** Go's type name of the value, for error messages. */
export function goType(v: TValue): string {
  if (v instanceof JsonNumber) return "json.Number";
  if (typeof v === "string") return "string";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "number") return Number.isInteger(v) ? "int" : "float64";
  if (Array.isArray(v) || v instanceof RegoSet) return "[]interface {}";
  if (v instanceof RegoObject) return "map[string]interface {}";
  return "interface {}";
}

/** Go's template truth: false, zero numbers, nil, missing and empty values are false. */
export function truthy(v: TValue): boolean {
  if (v === MISSING || v === null || v === false) return false;
  if (typeof v === "number") return v !== 0;
  if (typeof v === "string") return v !== "";
  if (Array.isArray(v)) return v.length > 0;
  if (v instanceof RegoObject || v instanceof RegoSet) return v.size > 0;
  return true;
}

type Kind = "bool" | "int" | "float" | "string" | "invalid" | "other";

function kindOf(v: TValue): Kind {
  if (v === MISSING || v === null) return "invalid";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "string" || v instanceof JsonNumber) return "string";
  if (typeof v === "number" || typeof v === "bigint")
    return Number.isInteger(Number(v)) ? "int" : "float";
  return "other";
}

function basicValue(v: TValue): string | number | boolean {
  if (v instanceof JsonNumber) return v.text;
  return typeof v === "bigint" ? Number(v) : (v as string | number | boolean);
}

/** Go's eq: true when the first argument equals any of the others. */
function eq(args: TValue[]): boolean {
  const [a, ...rest] = args as [TValue, ...TValue[]];
  if (rest.length === 0) throw new TemplateExecError("missing argument for comparison");
  const ka = kindOf(a);
  return rest.some((b) => {
    const kb = kindOf(b);
    if (ka !== kb) {
      if (ka !== "invalid" && kb !== "invalid")
        throw new TemplateExecError("incompatible types for comparison");
      return false;
    }
    if (ka === "invalid") return true;
    if (ka === "other") throw new TemplateExecError(`non-comparable type ${show(a)}: ${goType(a)}`);
    return basicValue(a) === basicValue(b);
  });
}

/** Go's lt: both basic, of one kind, and not bool. */
function less(a: TValue, b: TValue): boolean {
  const ka = kindOf(a);
  const kb = kindOf(b);
  if (
    ka === "bool" ||
    ka === "invalid" ||
    ka === "other" ||
    kb === "invalid" ||
    kb === "other" ||
    kb === "bool"
  ) {
    throw new TemplateExecError("invalid type for comparison");
  }
  if (ka !== kb) throw new TemplateExecError("incompatible types for comparison");
  return basicValue(a) < basicValue(b);
}

/** An argument for fmt: json.Number and composites keep Go's type names. */
function goArg(v: TValue): GoArg {
  if (v instanceof JsonNumber) return { kind: "string", value: v.text, type: "json.Number" };
  if (typeof v === "string") return { kind: "string", value: v };
  if (typeof v === "boolean") return { kind: "bool", value: v };
  if (typeof v === "number")
    return Number.isInteger(v) ? { kind: "int", value: BigInt(v) } : { kind: "float", value: v };
  return {
    kind: "string",
    value: v === MISSING || v === null ? "<nil>" : show(v),
    type: goType(v),
  };
}

/** Go's fmt.Sprint: a space between operands when neither is a string. */
function sprint(args: TValue[]): string {
  let out = "";
  args.forEach((a, i) => {
    const isString = kindOf(a) === "string";
    if (i > 0 && !isString && kindOf(args[i - 1] as TValue) !== "string") out += " ";
    out += show(a);
  });
  return out;
}

function length(v: TValue): number {
  if (typeof v === "string") return Buffer.byteLength(v);
  if (v instanceof JsonNumber) return v.text.length;
  if (Array.isArray(v)) return v.length;
  if (v instanceof RegoObject || v instanceof RegoSet) return v.size;
  throw new TemplateExecError(
    v === MISSING || v === null ? "len of nil pointer" : `len of type ${goType(v)}`,
  );
}

/** Go's index: ints into arrays, strings into maps; a missing key gives the zero value. */
export function indexInto(x: TValue, k: TValue): TValue {
  if (x === MISSING || x === null) throw new TemplateExecError("index of untyped nil");
  if (Array.isArray(x)) {
    if (kindOf(k) !== "int")
      throw new TemplateExecError(`cannot index slice/array with type ${goType(k)}`);
    const i = Number(k);
    if (i < 0 || i >= x.length) throw new TemplateExecError(`index out of range: ${i}`);
    return fromData(x[i]);
  }
  if (x instanceof RegoObject) {
    if (typeof k !== "string")
      throw new TemplateExecError(`value has type ${goType(k)}; should be string`);
    return fromData(x.get(k));
  }
  throw new TemplateExecError(`can't index item of type ${goType(x)}`);
}

const compare = (test: (a: TValue, b: TValue) => boolean) => (args: TValue[]) =>
  test(args[0] as TValue, args[1] as TValue);

/** The functions a pipeline may call, by name. */
export const templateFunctions: Record<string, (args: TValue[]) => TValue> = {
  and: (a) => a.find((x) => !truthy(x)) ?? (a[a.length - 1] as TValue),
  or: (a) => a.find((x) => truthy(x)) ?? (a[a.length - 1] as TValue),
  not: (a) => !truthy(a[0] as TValue),
  len: (a) => length(a[0] as TValue),
  index: ([x, ...keys]) => keys.reduce<TValue>(indexInto, x as TValue),
  eq,
  ne: (a) => !eq(a.slice(0, 2)),
  lt: compare(less),
  le: compare((a, b) => !less(b, a)),
  gt: compare((a, b) => less(b, a)),
  ge: compare((a, b) => !less(a, b)),
  print: sprint,
  println: (a) => `${a.map(show).join(" ")}\n`,
  printf: ([format, ...rest]) => goSprintf(show(format as TValue), rest.map(goArg)),
};
