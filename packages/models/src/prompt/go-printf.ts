import {
  FuncError,
  formatFloat,
  formatValue,
  GoNamed,
  GoStruct,
  kindOf,
  numberOf,
  typeName,
  underlying,
} from "./go-value.js";

/**
 * fmt.Sprintf for the `printf` template function: flags `-+# 0`, width and precision
 * (numbers or `*`), the verbs `v s q d b o x X c U t f F e E g G T %`, and Go's
 * `%!verb(type=value)`, `%!v(MISSING)` and `%!(EXTRA ...)` notes for mismatches.
 */

interface Spec {
  minus: boolean;
  plus: boolean;
  sharp: boolean;
  zero: boolean;
  space: boolean;
  width?: number;
  prec?: number;
}

function pad(s: string, spec: Spec, numeric = false): string {
  if (spec.width === undefined || s.length >= spec.width) return s;
  const fill = spec.width - s.length;
  if (spec.minus) return s + " ".repeat(fill);
  if (spec.zero && numeric) {
    const sign = /^[+\- ]/.test(s) ? (s[0] as string) : "";
    return sign + "0".repeat(fill) + s.slice(sign.length);
  }
  return " ".repeat(fill) + s;
}

function signed(n: string, negative: boolean, spec: Spec): string {
  if (negative) return `-${n}`;
  if (spec.plus) return `+${n}`;
  return spec.space ? ` ${n}` : n;
}

function bad(verb: string, arg: unknown): string {
  return `%!${verb}(${typeName(arg)}=${formatValue(arg)})`;
}

function formatInt(verb: string, arg: unknown, spec: Spec): string {
  const n = numberOf(arg);
  const bases: Record<string, number> = { d: 10, b: 2, o: 8, x: 16, X: 16 };
  let digits = Math.abs(n).toString(bases[verb] ?? 10);
  if (verb === "X") digits = digits.toUpperCase();
  if (spec.prec !== undefined) digits = digits.padStart(spec.prec, "0");
  if (spec.sharp && (verb === "x" || verb === "X")) digits = `0${verb}${digits}`;
  if (spec.sharp && verb === "o") digits = `0${digits}`;
  return pad(signed(digits, n < 0, spec), spec, spec.prec === undefined);
}

function formatFloatVerb(verb: string, x: number, spec: Spec): string {
  let s: string;
  const prec = spec.prec;
  if (verb === "f" || verb === "F") s = Math.abs(x).toFixed(prec ?? 6);
  else if (verb === "e" || verb === "E") {
    s = Math.abs(x)
      .toExponential(prec ?? 6)
      .replace(/e([+-])(\d)$/, "e$10$2");
    if (verb === "E") s = s.toUpperCase();
  } else if (prec === undefined) s = formatFloat(Math.abs(x), verb === "v" ? 21 : 21);
  else s = Number(Math.abs(x).toPrecision(Math.max(prec, 1))).toString();
  if (!Number.isFinite(x)) s = Number.isNaN(x) ? "NaN" : "Inf";
  return pad(signed(s, x < 0 || Object.is(x, -0), spec), spec, true);
}

function quote(s: string): string {
  return JSON.stringify(s).replace(/[\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16)}`);
}

function formatOne(verb: string, arg: unknown, spec: Spec): string {
  const k = kindOf(arg);
  const hasMethods = arg instanceof GoStruct || arg instanceof GoNamed;
  switch (verb) {
    case "v":
      if (k === "float" && !hasMethods) return formatFloatVerb("g", numberOf(arg), spec);
      return pad(formatValue(arg), spec);
    case "T":
      return pad(typeName(arg), spec);
    case "s":
      if (k === "string" || hasMethods) {
        const s = formatValue(arg);
        return pad(spec.prec === undefined ? s : [...s].slice(0, spec.prec).join(""), spec);
      }
      return k === "slice" || k === "map" ? formatValue(arg) : bad(verb, arg);
    case "q":
      if (k === "string") return pad(quote(underlying(arg) as string), spec);
      if (k === "int") return pad(`'${String.fromCodePoint(numberOf(arg))}'`, spec);
      return bad(verb, arg);
    case "t":
      return k === "bool" ? pad(String(underlying(arg)), spec) : bad(verb, arg);
    case "c":
      return k === "int" ? pad(String.fromCodePoint(numberOf(arg)), spec) : bad(verb, arg);
    case "U":
      return k === "int"
        ? pad(`U+${numberOf(arg).toString(16).toUpperCase().padStart(4, "0")}`, spec)
        : bad(verb, arg);
    case "d":
    case "b":
    case "o":
      return k === "int" ? formatInt(verb, arg, spec) : bad(verb, arg);
    case "x":
    case "X":
      if (k === "int") return formatInt(verb, arg, spec);
      if (k === "string") {
        const hex = Buffer.from(underlying(arg) as string, "utf8").toString("hex");
        return pad(verb === "X" ? hex.toUpperCase() : hex, spec);
      }
      return bad(verb, arg);
    case "f":
    case "F":
    case "e":
    case "E":
    case "g":
    case "G":
      return k === "float" ? formatFloatVerb(verb, numberOf(arg), spec) : bad(verb, arg);
    default:
      return `%!${verb}(${typeName(arg)}=${formatValue(arg)})`;
  }
}

/** Go's fmt.Sprintf. */
export function printf(format: unknown, args: unknown[]): string {
  if (kindOf(format) !== "string")
    throw new FuncError(`wrong type for value; expected string; got ${typeName(format)}`);
  const f = underlying(format) as string;
  let out = "";
  let argi = 0;
  let i = 0;
  while (i < f.length) {
    const pct = f.indexOf("%", i);
    if (pct === -1) {
      out += f.slice(i);
      break;
    }
    out += f.slice(i, pct);
    i = pct + 1;
    const spec: Spec = { minus: false, plus: false, sharp: false, zero: false, space: false };
    for (; i < f.length; i++) {
      const c = f[i];
      if (c === "-") spec.minus = true;
      else if (c === "+") spec.plus = true;
      else if (c === "#") spec.sharp = true;
      else if (c === "0") spec.zero = !spec.minus;
      else if (c === " ") spec.space = true;
      else break;
    }
    const num = (): number | undefined => {
      if (f[i] === "*") {
        i++;
        const v = args[argi++];
        return kindOf(v) === "int" ? numberOf(v) : undefined;
      }
      const m = /^\d+/.exec(f.slice(i));
      if (!m) return undefined;
      i += m[0].length;
      return Number(m[0]);
    };
    spec.width = num();
    if (f[i] === ".") {
      i++;
      spec.prec = num() ?? 0;
    }
    const verb = f[i++];
    if (verb === undefined) {
      out += "%!(NOVERB)";
      break;
    }
    if (verb === "%") {
      out += "%";
      continue;
    }
    if (argi >= args.length) {
      out += `%!${verb}(MISSING)`;
      continue;
    }
    out += formatOne(verb, args[argi++], spec);
  }
  if (argi < args.length)
    out += `%!(EXTRA ${args
      .slice(argi)
      .map((a) => `${typeName(a)}=${formatValue(a)}`)
      .join(", ")})`;
  return out;
}
