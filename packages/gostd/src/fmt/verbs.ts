/**
 * Go's fmt verbs applied to one operand (an int64, a big.Int, a float64 or a string), with
 * flags, width and precision, including Go's `%!verb(type=value)` form for a verb the
 * operand's type lacks. The directive walker lives in sprintf.ts.
 */
import {
  formatBinaryExp,
  formatExp,
  formatFixed,
  formatGeneral,
  formatHexFloat,
} from "../strconv/float.js";
import { canBackquote, goQuote, isPrintable } from "../strconv/quote.js";

/** An operand as Go's fmt sees it. */
export type GoArg =
  | { kind: "int"; value: bigint }
  | { kind: "big"; value: bigint }
  | { kind: "float"; value: number }
  | { kind: "bool"; value: boolean }
  /** A string kind; `type` names a named string type (json.Number) or a pre-printed value. */
  | { kind: "string"; value: string; type?: string };

/** Go's type name of an argument, for `%!verb(type=value)` and EXTRA reports. */
export function goTypeName(a: GoArg): string {
  if (a.kind === "string") return a.type ?? "string";
  return { int: "int", big: "*big.Int", float: "float64", bool: "bool" }[a.kind];
}

/** One parsed `%` directive. */
export interface Spec {
  minus: boolean;
  plus: boolean;
  sharp: boolean;
  space: boolean;
  zero: boolean;
  /** `%#v`: Go-syntax form (strings quoted). */
  sharpV?: boolean;
  /** `%+v`: the plus flag as a Formatter still sees it. */
  plusV?: boolean;
  width?: number;
  prec?: number;
  verb: string;
}

/** Pads to the width in code points; zeros go after any sign when `zero` is set. */
function pad(s: string, spec: Spec, zeroAllowed = false): string {
  const width = spec.width ?? 0;
  const len = Array.from(s).length;
  if (len >= width) return s;
  const fill = width - len;
  if (spec.minus) return s + " ".repeat(fill);
  if (spec.zero && zeroAllowed) {
    const sign = /^[+\- ]/.test(s) ? (s[0] as string) : "";
    return sign + "0".repeat(fill) + s.slice(sign.length);
  }
  return " ".repeat(fill) + s;
}

function signOf(negative: boolean, spec: Spec): string {
  if (negative) return "-";
  return spec.plus ? "+" : spec.space ? " " : "";
}

const intBases: Record<string, number> = { d: 10, v: 10, s: 10, b: 2, o: 8, O: 8, x: 16, X: 16 };

/** Go's fmtInteger: precision is a minimum digit count, `#` adds base prefixes. */
function formatInteger(n: bigint, spec: Spec, verb: string): string {
  const base = intBases[verb] ?? 10;
  const negative = n < 0n;
  let digits = (negative ? -n : n).toString(base);
  if (verb === "X") digits = digits.toUpperCase();
  if (spec.prec !== undefined) {
    // Precision 0 and value 0 print nothing but the padding.
    if (spec.prec === 0 && n === 0n) return pad("", { ...spec, zero: false });
    digits = digits.padStart(spec.prec, "0");
  } else if (spec.zero && !spec.minus && spec.width !== undefined) {
    const signLen = negative || spec.plus || spec.space ? 1 : 0;
    digits = digits.padStart(spec.width - signLen, "0");
  }
  let prefix = "";
  if (spec.sharp) {
    if (base === 8 && !digits.startsWith("0")) prefix = "0";
    else if (base === 16) prefix = verb === "X" ? "0X" : "0x";
    else if (base === 2) prefix = "0b";
  }
  if (verb === "O") prefix = `0o${prefix}`;
  return pad(signOf(negative, spec) + prefix + digits, { ...spec, zero: false });
}

/** %c, %q and %U of an integer, which Go reads as an unsigned 64-bit code. */
function formatChar(n: bigint, spec: Spec, verb: string): string {
  const code = n < 0n ? (1n << 64n) + n : n;
  const cp = code <= 0x10ffffn && (code < 0xd800n || code > 0xdfffn) ? Number(code) : 0xfffd;
  const ch = String.fromCodePoint(cp);
  if (verb === "c") return pad(ch, spec, true);
  if (verb === "q") {
    const quoted = ch === "'" ? "\\'" : ch === '"' ? '"' : goQuote(ch, spec.plus).slice(1, -1);
    return pad(`'${quoted}'`, spec, true);
  }
  const digits = code
    .toString(16)
    .toUpperCase()
    .padStart(Math.max(4, spec.prec ?? 0), "0");
  const u = `U+${digits}`;
  return pad(spec.sharp && cp === Number(code) && isPrintable(ch) ? `${u} '${ch}'` : u, {
    ...spec,
    zero: false,
  });
}

/**
 * big.Int's own Format: the prefix counts toward the width, zero padding goes after it, and
 * `%+v` keeps its sign (Flag('+') also reports the %+v form).
 */
function formatBigInteger(n: bigint, spec: Spec, verb: string): string {
  const base = intBases[verb] ?? 10;
  const negative = n < 0n;
  const sign = negative ? "-" : spec.plus || spec.plusV ? "+" : spec.space ? " " : "";
  let prefix = "";
  if (spec.sharp) prefix = { b: "0b", o: "0", x: "0x", X: "0X" }[verb] ?? "";
  if (verb === "O") prefix = "0o";
  let digits = (negative ? -n : n).toString(base);
  if (verb === "X") digits = digits.toUpperCase();
  let zeros = 0;
  if (spec.prec !== undefined) {
    if (digits.length < spec.prec) zeros = spec.prec - digits.length;
    else if (digits === "0" && spec.prec === 0) return "";
  }
  const length = sign.length + prefix.length + zeros + digits.length;
  const fill = Math.max((spec.width ?? 0) - length, 0);
  if (spec.minus) return `${sign}${prefix}${"0".repeat(zeros)}${digits}${" ".repeat(fill)}`;
  if (spec.zero && spec.prec === undefined)
    return `${sign}${prefix}${"0".repeat(zeros + fill)}${digits}`;
  return `${" ".repeat(fill)}${sign}${prefix}${"0".repeat(zeros)}${digits}`;
}

function formatIntArg(a: GoArg & { value: bigint }, spec: Spec): string | undefined {
  const { verb } = spec;
  if (a.kind === "big") return verb in intBases ? formatBigInteger(a.value, spec, verb) : undefined;
  if (verb in intBases && verb !== "s") return formatInteger(a.value, spec, verb);
  if (a.kind === "int" && (verb === "c" || verb === "q" || verb === "U"))
    return formatChar(a.value, spec, verb);
  return undefined;
}

/** The unsigned text of a finite float for a float verb, or undefined for other verbs. */
function floatBody(abs: number, spec: Spec): string | undefined {
  const { verb, prec } = spec;
  switch (verb) {
    case "e":
    case "E":
      return sharpFloat(formatExp(abs, prec ?? 6, verb === "E"), spec, -1);
    case "f":
    case "F":
      return sharpFloat(formatFixed(abs, prec ?? 6), spec, -1);
    case "g":
    case "G":
    case "v":
      return sharpFloat(formatGeneral(abs, prec ?? -1, verb === "G"), spec, prec ?? 6);
    case "x":
      return sharpFloat(formatHexFloat(abs, prec ?? -1), spec, prec ?? 6);
    case "X":
      return sharpFloat(formatHexFloat(abs, prec ?? -1, true), spec, -1);
    case "b":
      return formatBinaryExp(abs);
    default:
      return undefined;
  }
}

/**
 * Go's `#` for floats: always a decimal point, and for %g/%x trailing zeros up to
 * `digits` significant digits (negative: none added).
 */
function sharpFloat(text: string, spec: Spec, digits: number): string {
  if (!spec.sharp) return text;
  const hex = text.startsWith("0x") || text.startsWith("0X");
  const tailAt = text.search(hex ? /[pP]/ : /[eE]/);
  let num = tailAt < 0 ? text : text.slice(0, tailAt);
  const tail = tailAt < 0 ? "" : text.slice(tailAt);
  let remaining = digits;
  // Go counts digits from the first non-zero character, and for hex that is the "x".
  const significant = hex ? num.slice(1).replace(".", "") : num.replace(".", "").replace(/^0+/, "");
  if (remaining > 0) remaining -= significant.length;
  if (!num.includes(".")) {
    if (num === "0" && remaining > 0) remaining--;
    num += ".";
  }
  return num + "0".repeat(Math.max(remaining, 0)) + tail;
}

function formatFloatArg(x: number, spec: Spec): string | undefined {
  if (!Number.isFinite(x)) {
    if (!"eEfFgGvxXb".includes(spec.verb)) return undefined;
    const body = Number.isNaN(x) ? "NaN" : `${x < 0 ? "-" : spec.plus ? "+" : ""}Inf`;
    return pad(body, { ...spec, zero: false });
  }
  const body = floatBody(Math.abs(x), spec);
  if (body === undefined) return undefined;
  const negative = x < 0 || Object.is(x, -0);
  return pad(signOf(negative, spec) + body, spec, true);
}

/** Hex of the string's UTF-8 bytes; precision limits the bytes, `#` and space as in Go. */
function hexOfString(s: string, spec: Spec): string {
  let bytes = [...Buffer.from(s, "utf8")];
  if (spec.prec !== undefined) bytes = bytes.slice(0, spec.prec);
  const digits = bytes.map((b) => b.toString(16).padStart(2, "0"));
  let hex: string;
  if (spec.space) hex = digits.map((d) => (spec.sharp ? `0x${d}` : d)).join(" ");
  else hex = (spec.sharp && digits.length > 0 ? "0x" : "") + digits.join("");
  return spec.verb === "X" ? hex.toUpperCase() : hex;
}

function formatStringArg(s: string, spec: Spec): string | undefined {
  const truncated = spec.prec === undefined ? s : Array.from(s).slice(0, spec.prec).join("");
  switch (spec.verb) {
    case "s":
      return pad(truncated, spec, true);
    case "v":
      return pad(spec.sharpV ? goQuote(truncated) : truncated, spec, true);
    case "q":
      if (spec.sharp && canBackquote(truncated)) return pad(`\`${truncated}\``, spec, true);
      return pad(goQuote(truncated, spec.plus), spec, true);
    case "x":
    case "X":
      return pad(hexOfString(s, spec), spec, true);
    default:
      return undefined;
  }
}

/** Formats one argument; a verb its type lacks gives Go's `%!verb(type=value)`. */
export function formatArg(a: GoArg, spec: Spec): string {
  let out: string | undefined;
  if (a.kind === "int" || a.kind === "big") out = formatIntArg(a, spec);
  else if (a.kind === "float") out = formatFloatArg(a.value, spec);
  else if (a.kind === "bool")
    out = spec.verb === "t" || spec.verb === "v" ? pad(String(a.value), spec, true) : undefined;
  else out = formatStringArg(a.value, spec);
  if (out !== undefined) return out;
  if (a.kind === "big") return `%!${spec.verb}(big.Int=${a.value})`;
  // Go prints the operand with %v under the same flags, width and precision.
  return `%!${spec.verb}(${goTypeName(a)}=${formatArg(a, { ...spec, verb: "v" })})`;
}

/** `%v` of an argument with no flags, as in `%!(EXTRA ...)`. */
export function plain(a: GoArg): string {
  return formatArg(a, {
    minus: false,
    plus: false,
    sharp: false,
    space: false,
    zero: false,
    verb: "v",
  });
}
