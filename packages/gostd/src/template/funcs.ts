import { formatValue, sprint, sprintln } from "../fmt/print.js";
import { sprintf } from "../fmt/sprintf.js";
import { isTrue, kindOf, NIL_SLICE, numberOf, typeName, underlying } from "../fmt/value.js";
import { FuncError } from "./errors.js";

/**
 * Go's builtin template functions (`and`/`or` short-circuit in the evaluator). A function
 * throws `FuncError` with Go's wording; the evaluator adds `error calling X:`. A caller may
 * add its own functions (TemplateOptions.functions), written the same way.
 */

/** A template function: Go values in, a Go value out. */
export type TemplateFunc = (args: unknown[]) => unknown;
type Func = TemplateFunc;

function arity(name: string, args: unknown[], want: number): void {
  if (args.length !== want)
    throw new FuncError(`wrong number of args for ${name}: want ${want} got ${args.length}`);
}

function atLeast(name: string, args: unknown[], want: number): void {
  if (args.length < want)
    throw new FuncError(
      `wrong number of args for ${name}: want at least ${want} got ${args.length}`,
    );
}

type Basic = "bool" | "int" | "float" | "string";

function basicKind(v: unknown): Basic | undefined {
  const k = kindOf(v);
  return k === "bool" || k === "int" || k === "float" || k === "string" ? k : undefined;
}

function eq(args: unknown[]): boolean {
  atLeast("eq", args, 1);
  const [a, ...rest] = args;
  if (rest.length === 0) throw new FuncError("missing argument for comparison");
  const k1 = basicKind(a);
  for (const b of rest) {
    const k2 = basicKind(b);
    let truth = false;
    if (k1 !== k2 || k1 === undefined) {
      const valid = kindOf(a) !== "invalid" && kindOf(b) !== "invalid";
      if (k1 !== k2 && valid && (k1 !== undefined || k2 !== undefined))
        throw new FuncError("incompatible types for comparison");
      if (k1 === undefined && k2 === undefined) truth = sameNonBasic(a, b);
    } else if (k1 === "bool" || k1 === "string") truth = underlying(a) === underlying(b);
    else truth = numberOf(a) === numberOf(b);
    if (truth) return true;
  }
  return false;
}

/** eq on values that are not basic: nils compare equal, other kinds are not comparable. */
function sameNonBasic(a: unknown, b: unknown): boolean {
  const nilA = kindOf(a) === "nil" || kindOf(a) === "invalid";
  const nilB = kindOf(b) === "nil" || kindOf(b) === "invalid";
  if (nilA || nilB) return nilA === nilB;
  if (kindOf(a) === "struct" && kindOf(b) === "struct") return a === b;
  throw new FuncError(`non-comparable type ${formatValue(a)}: ${typeName(a)}`);
}

function lt(a: unknown, b: unknown): boolean {
  const k1 = basicKind(a);
  const k2 = basicKind(b);
  if (k1 === undefined || k2 === undefined) throw new FuncError("invalid type for comparison");
  if (k1 !== k2) throw new FuncError("incompatible types for comparison");
  if (k1 === "bool") throw new FuncError("invalid type for comparison");
  if (k1 === "string") return (underlying(a) as string) < (underlying(b) as string);
  return numberOf(a) < numberOf(b);
}

/** A string's bytes as Go sees them (UTF-8). */
function bytesOf(s: string): Buffer {
  return Buffer.from(s, "utf8");
}

function length(args: unknown[]): number {
  arity("len", args, 1);
  const u = underlying(args[0]);
  const k = kindOf(u);
  if (k === "string") return bytesOf(u as string).length;
  if (k === "slice") return (u as ArrayLike<unknown>).length;
  if (k === "map") return Object.keys(u as object).length;
  if (k === "nil" || k === "invalid") throw new FuncError("len of nil pointer");
  throw new FuncError(`len of type ${typeName(u)}`);
}

function intIndex(v: unknown, what: string): number {
  if (kindOf(v) !== "int") throw new FuncError(`cannot index ${what} with type ${typeName(v)}`);
  return numberOf(v);
}

function index(args: unknown[]): unknown {
  atLeast("index", args, 1);
  let item = args[0];
  for (const key of args.slice(1)) {
    const u = underlying(item);
    const k = kindOf(u);
    if (k === "invalid" || k === "nil") throw new FuncError("index of untyped nil");
    if (k === "slice" || k === "string") {
      const list = k === "string" ? bytesOf(u as string) : (u as ArrayLike<unknown>);
      const i = intIndex(key, k);
      if (i < 0 || i >= list.length) throw new FuncError(`index out of range: ${i}`);
      item = list[i];
    } else if (k === "map") {
      if (kindOf(key) !== "string")
        throw new FuncError(`value has type ${typeName(key)}; should be string`);
      const m = u as Record<string, unknown>;
      item = Object.hasOwn(m, underlying(key) as string) ? m[underlying(key) as string] : undefined;
    } else throw new FuncError(`can't index item of type ${typeName(u)}`);
  }
  return item;
}

function slice(args: unknown[]): unknown {
  atLeast("slice", args, 1);
  const u = underlying(args[0]);
  const k = kindOf(u);
  if (k !== "slice" && k !== "string")
    throw new FuncError(`can't slice item of type ${typeName(u)}`);
  const idx = args.slice(1).map((a) => intIndex(a, "slice"));
  if (idx.length > 3 || (k === "string" && idx.length > 2))
    throw new FuncError(`too many slice indexes: ${idx.length}`);
  const whole = k === "string" ? bytesOf(u as string) : (u as unknown[]);
  const from = idx[0] ?? 0;
  const to = idx[1] ?? whole.length;
  if (from < 0 || to < from || to > whole.length)
    throw new FuncError(`index out of range: ${to < from ? to : from}`);
  if (k === "string") return (whole as Buffer).subarray(from, to).toString("utf8");
  return u === NIL_SLICE ? NIL_SLICE : (whole as unknown[]).slice(from, to);
}

/** The text of escaper arguments: one string as is, anything else printed (Go's evalArgs). */
function escaperText(args: unknown[]): string {
  return args.length === 1 && kindOf(args[0]) === "string"
    ? (underlying(args[0]) as string)
    : sprint(args);
}

function html(args: unknown[]): string {
  const map: Record<string, string> = {
    '"': "&#34;",
    "'": "&#39;",
    "&": "&amp;",
    "<": "&lt;",
    ">": "&gt;",
    "\0": "\uFFFD",
  };
  return escaperText(args).replace(/["'&<>\0]/g, (c) => map[c] as string);
}

function js(args: unknown[]): string {
  let out = "";
  for (const ch of escaperText(args)) {
    const c = ch.codePointAt(0) as number;
    if (ch === "\\" || ch === "'" || ch === '"') out += `\\${ch}`;
    else if (ch === "<" || ch === ">" || ch === "&" || ch === "=")
      out += `\\u${c.toString(16).toUpperCase().padStart(4, "0")}`;
    else if (c < 0x20) out += `\\u00${c.toString(16).toUpperCase().padStart(2, "0")}`;
    else if (c >= 0x7f && !/[\p{L}\p{M}\p{N}\p{P}\p{S}\p{Zs}]/u.test(ch))
      out += `\\u${c.toString(16).toUpperCase().padStart(4, "0")}`;
    else out += ch;
  }
  return out;
}

function urlquery(args: unknown[]): string {
  let out = "";
  for (const b of bytesOf(escaperText(args))) {
    const ch = String.fromCharCode(b);
    if (/[A-Za-z0-9\-_.~]/.test(ch)) out += ch;
    else if (ch === " ") out += "+";
    else out += `%${b.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** Fails unless every argument is a string, as a Go function of string parameters does. */
export function stringArgs(args: unknown[]): void {
  for (const a of args)
    if (kindOf(a) !== "string")
      throw new FuncError(`wrong type for value; expected string; got ${typeName(a)}`);
}

/** A function of exactly `n` arguments. */
export function fixed(name: string, n: number, fn: Func): Func {
  return (args) => {
    arity(name, args, n);
    return fn(args);
  };
}

/** fmt.Sprintf, whose format must be a string. */
function printf(args: unknown[]): string {
  atLeast("printf", args, 1);
  stringArgs(args.slice(0, 1));
  return sprintf(underlying(args[0]) as string, args.slice(1));
}

/** Go's builtin functions by name. */
export const BUILTINS: ReadonlyMap<string, Func> = new Map<string, Func>([
  ["not", fixed("not", 1, (a) => !isTrue(a[0]))],
  ["eq", eq],
  ["ne", fixed("ne", 2, (a) => !eq(a))],
  ["lt", fixed("lt", 2, (a) => lt(a[0], a[1]))],
  ["le", fixed("le", 2, (a) => lt(a[0], a[1]) || eq(a))],
  ["gt", fixed("gt", 2, (a) => !(lt(a[0], a[1]) || eq(a)))],
  ["ge", fixed("ge", 2, (a) => !lt(a[0], a[1]))],
  ["len", length],
  ["index", index],
  ["slice", slice],
  ["print", sprint],
  ["println", sprintln],
  ["printf", printf],
  ["html", html],
  ["js", js],
  ["urlquery", urlquery],
  ["call", (a) => callValue(a)],
]);

/** `call`: templates here have no function values, so every call fails as Go's would. */
function callValue(args: unknown[]): never {
  atLeast("call", args, 1);
  throw new FuncError(`non-function ${formatValue(args[0])} of type ${typeName(args[0])}`);
}

/** Names the evaluator handles itself (short-circuit), valid like functions. */
export const SPECIAL_FUNCTIONS: ReadonlySet<string> = new Set(["and", "or"]);
