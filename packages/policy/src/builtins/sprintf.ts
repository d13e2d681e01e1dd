/**
 * sprintf with Go's fmt verbs. OPA hands Go integers (int64 or big.Int), float64s and
 * strings to fmt.Sprintf, and every other value as its Rego text, so `%d` of a string
 * prints Go's `%!d(string=...)` and `%v` of an array prints `["a", 1]`.
 */
import { formatValue } from "../value/format.js";
import type { Value } from "../value/value.js";
import { asArray, asString } from "./args.js";
import { formatExp, formatFixed, formatGeneral } from "./go-float.js";
import type { BuiltinDef } from "./registry-types.js";

/** An operand as Go's fmt sees it. */
export type GoArg =
  | { kind: "int"; value: bigint }
  | { kind: "big"; value: bigint }
  | { kind: "float"; value: number }
  | { kind: "string"; value: string };

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

function toGoArg(v: Value): GoArg {
  if (typeof v === "string") return { kind: "string", value: v };
  if (typeof v === "bigint") {
    return { kind: v >= INT64_MIN && v <= INT64_MAX ? "int" : "big", value: v };
  }
  if (typeof v === "number") {
    if (Number.isSafeInteger(v)) return { kind: "int", value: BigInt(v) };
    if (Number.isFinite(v)) return { kind: "float", value: v };
    return { kind: "string", value: String(v) };
  }
  return { kind: "string", value: formatValue(v) };
}

/** Go's type name of an argument, for `%!verb(type=value)` and EXTRA reports. */
function goTypeName(a: GoArg): string {
  return { int: "int", big: "*big.Int", float: "float64", string: "string" }[a.kind];
}

/** One parsed `%` directive. */
interface Spec {
  minus: boolean;
  plus: boolean;
  sharp: boolean;
  space: boolean;
  zero: boolean;
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
    if (spec.prec === 0 && n === 0n) digits = "";
    digits = digits.padStart(spec.prec, "0");
  } else if (spec.zero && !spec.minus && spec.width !== undefined) {
    const signLen = negative || spec.plus || spec.space ? 1 : 0;
    digits = digits.padStart(spec.width - signLen, "0");
  }
  let prefix = "";
  if (verb === "O") prefix = "0o";
  else if (spec.sharp) {
    if (base === 8 && !digits.startsWith("0")) prefix = "0";
    else if (base === 16) prefix = verb === "X" ? "0X" : "0x";
    else if (base === 2) prefix = "0b";
  }
  return pad(signOf(negative, spec) + prefix + digits, { ...spec, zero: false });
}

/** Go's strconv.Quote: printable code points stay, the rest become escapes. */
export function goQuote(s: string, asciiOnly = false): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    if (ch === '"' || ch === "\\") out += `\\${ch}`;
    else if (cp >= 0x20 && cp < 0x7f) out += ch;
    else if (cp === 0x07) out += "\\a";
    else if (cp === 0x08) out += "\\b";
    else if (cp === 0x0c) out += "\\f";
    else if (cp === 0x0a) out += "\\n";
    else if (cp === 0x0d) out += "\\r";
    else if (cp === 0x09) out += "\\t";
    else if (cp === 0x0b) out += "\\v";
    else if (!asciiOnly && cp > 0x7f && /^[\p{L}\p{M}\p{N}\p{P}\p{S}\u0020]$/u.test(ch)) out += ch;
    else if (cp < 0x80) out += `\\x${cp.toString(16).padStart(2, "0")}`;
    else if (cp < 0x10000) out += `\\u${cp.toString(16).padStart(4, "0")}`;
    else out += `\\U${cp.toString(16).padStart(8, "0")}`;
  }
  return `${out}"`;
}

function formatChar(n: bigint, spec: Spec, verb: string): string {
  const cp = n >= 0n && n <= 0x10ffffn ? Number(n) : 0xfffd;
  const ch = String.fromCodePoint(cp >= 0xd800 && cp <= 0xdfff ? 0xfffd : cp);
  if (verb === "c") return pad(ch, spec);
  if (verb === "q")
    return pad(`'${goQuote(ch).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`, spec);
  const u = `U+${Number(n).toString(16).toUpperCase().padStart(4, "0")}`;
  return pad(spec.sharp ? `${u} '${ch}'` : u, spec);
}

function formatIntArg(a: GoArg & { value: bigint }, spec: Spec): string | undefined {
  const { verb } = spec;
  if (a.kind === "big") return verb in intBases ? formatInteger(a.value, spec, verb) : undefined;
  if (verb === "s") return undefined;
  if (verb in intBases) return formatInteger(a.value, spec, verb);
  if (verb === "c" || verb === "q" || verb === "U") return formatChar(a.value, spec, verb);
  return undefined;
}

function formatFloatArg(x: number, spec: Spec): string | undefined {
  const { verb, prec } = spec;
  let body: string;
  if (!Number.isFinite(x)) {
    if (!"eEfFgGv".includes(verb)) return undefined;
    body = Number.isNaN(x) ? "NaN" : `${x < 0 ? "-" : spec.plus ? "+" : ""}Inf`;
    return pad(body, spec);
  }
  const abs = Math.abs(x);
  switch (verb) {
    case "e":
    case "E":
      body = formatExp(abs, prec ?? 6, verb === "E");
      break;
    case "f":
    case "F":
      body = formatFixed(abs, prec ?? 6);
      break;
    case "g":
    case "G":
    case "v":
      body = formatGeneral(abs, prec ?? -1, verb === "G", spec.sharp);
      break;
    default:
      return undefined;
  }
  const negative = x < 0 || Object.is(x, -0);
  return pad(signOf(negative, spec) + body, spec, true);
}

/** Go's strconv.CanBackquote: no backquote and no control characters but tab. */
function canBackquote(s: string): boolean {
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    if (ch === "`" || c === 0x7f || (c < 0x20 && c !== 0x09)) return false;
  }
  return true;
}

function formatStringArg(s: string, spec: Spec): string | undefined {
  switch (spec.verb) {
    case "s":
    case "v": {
      const text = spec.prec === undefined ? s : Array.from(s).slice(0, spec.prec).join("");
      return pad(text, spec, true);
    }
    case "q":
      if (spec.sharp && canBackquote(s)) return pad(`\`${s}\``, spec);
      return pad(goQuote(s, spec.plus), spec);
    case "x":
    case "X": {
      const bytes = [...Buffer.from(s, "utf8")].map((b) => b.toString(16).padStart(2, "0"));
      const hex = bytes.map((b) => (spec.sharp ? `0x${b}` : b)).join(spec.space ? " " : "");
      return pad(spec.verb === "X" ? hex.toUpperCase() : hex, spec);
    }
    default:
      return undefined;
  }
}

/** Plain `%v` text of an argument, as used inside Go's error forms. */
function plain(a: GoArg): string {
  if (a.kind === "float") return formatGeneral(a.value, -1);
  return String(a.value);
}

function formatArg(a: GoArg, spec: Spec): string {
  let out: string | undefined;
  if (a.kind === "int" || a.kind === "big") out = formatIntArg(a, spec);
  else if (a.kind === "float") out = formatFloatArg(a.value, spec);
  else out = formatStringArg(a.value, spec);
  if (out !== undefined) return out;
  if (a.kind === "big") return `%!${spec.verb}(big.Int=${a.value})`;
  return `%!${spec.verb}(${goTypeName(a)}=${plain(a)})`;
}

/** Walks the format string, consuming arguments in order (or as `%[n]` reorders them). */
class Directives {
  i = 0;
  argNum = 0;
  reordered = false;
  out = "";

  constructor(
    private readonly format: string,
    private readonly args: GoArg[],
  ) {}

  run(): string {
    const { format } = this;
    while (this.i < format.length) {
      const pct = format.indexOf("%", this.i);
      if (pct < 0) {
        this.out += format.slice(this.i);
        break;
      }
      this.out += format.slice(this.i, pct);
      this.i = pct + 1;
      if (!this.directive()) break;
    }
    if (!this.reordered && this.argNum < this.args.length) {
      const extra = this.args.slice(this.argNum).map((a) => `${goTypeName(a)}=${plain(a)}`);
      this.out += `%!(EXTRA ${extra.join(", ")})`;
    }
    return this.out;
  }

  /** Handles one directive after its `%`; false when the format ended early. */
  private directive(): boolean {
    const spec = this.flags();
    let ok = this.index();
    spec.width = this.starOrNumber(spec, "BADWIDTH");
    ok = ok && this.index();
    if (this.format[this.i] === ".") {
      this.i++;
      ok = ok && this.index();
      spec.prec = this.starOrNumber(spec, "BADPREC") ?? 0;
      ok = ok && this.index();
    }
    if (this.i >= this.format.length) {
      this.out += "%!(NOVERB)";
      return false;
    }
    const verb = String.fromCodePoint(this.format.codePointAt(this.i) as number);
    this.i += verb.length;
    spec.verb = verb;
    const arg = this.args[this.argNum];
    if (verb === "%") this.out += "%";
    else if (!ok) this.out += `%!${verb}(BADINDEX)`;
    else if (arg === undefined) this.out += `%!${verb}(MISSING)`;
    else {
      this.argNum++;
      this.out += formatArg(arg, spec);
    }
    return true;
  }

  private flags(): Spec {
    const spec: Spec = {
      minus: false,
      plus: false,
      sharp: false,
      space: false,
      zero: false,
      verb: "",
    };
    const names: Record<string, keyof Spec> = {
      "-": "minus",
      "+": "plus",
      "#": "sharp",
      " ": "space",
      "0": "zero",
    };
    for (
      let name = names[this.format[this.i] ?? ""];
      name;
      name = names[this.format[this.i] ?? ""]
    ) {
      (spec as unknown as Record<string, boolean>)[name] = true;
      this.i++;
    }
    return spec;
  }

  /** An explicit argument index `[n]`; false when it is out of range. */
  private index(): boolean {
    const m = /^\[(\d+)\]/.exec(this.format.slice(this.i));
    if (!m) return true;
    this.reordered = true;
    this.i += m[0].length;
    const n = Number(m[1]);
    if (n < 1 || n > this.args.length) return false;
    this.argNum = n - 1;
    return true;
  }

  /** A width or precision: `*` takes an int argument, otherwise decimal digits. */
  private starOrNumber(spec: Spec, bad: string): number | undefined {
    if (this.format[this.i] === "*") {
      this.i++;
      const a = this.args[this.argNum++];
      if (a?.kind !== "int" || (bad === "BADPREC" && a.value < 0n)) {
        this.out += `%!(${bad})`;
        return undefined;
      }
      if (a.value < 0n) spec.minus = true;
      return Math.abs(Number(a.value));
    }
    const m = /^[0-9]+/.exec(this.format.slice(this.i));
    if (!m) return undefined;
    this.i += m[0].length;
    return Number(m[0]);
  }
}

/** Go's fmt.Sprintf over already converted arguments. */
export function goSprintf(format: string, args: GoArg[]): string {
  return new Directives(format, args).run();
}

/** Go's fmt.Sprintf over Rego values, converted as OPA converts sprintf's operands. */
export function goSprintfValues(format: string, values: Value[]): string {
  return goSprintf(format, values.map(toGoArg));
}

function sprintf(args: Value[]): Value {
  const format = asString("sprintf", args[0] as Value, 1);
  const values = asArray("sprintf", args[1] as Value, 2);
  return goSprintfValues(format, values);
}

export const sprintfBuiltins: BuiltinDef[] = [
  { name: "sprintf", args: ["string", "array"], result: "string", impl: sprintf },
];
