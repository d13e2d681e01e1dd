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

/** The exact decimal digits of a finite non-negative double: `digits × 10^-scale`. */
function exactDecimal(x: number): { digits: bigint; scale: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const rawExp = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  const mantissa = rawExp === 0 ? fraction : fraction | (1n << 52n);
  const exp = (rawExp === 0 ? 1 : rawExp) - 1075;
  if (exp >= 0) return { digits: mantissa << BigInt(exp), scale: 0 };
  return { digits: mantissa * 5n ** BigInt(-exp), scale: -exp };
}

/** `%.pf` as Go rounds it: to nearest, ties to even, on the exact binary value. */
function toFixedGo(x: number, prec: number): string {
  const { digits, scale } = exactDecimal(x);
  let kept = digits;
  if (scale > prec) {
    const unit = 10n ** BigInt(scale - prec);
    kept = digits / unit;
    const rest = digits % unit;
    if (rest * 2n > unit || (rest * 2n === unit && kept % 2n === 1n)) kept += 1n;
  } else kept = digits * 10n ** BigInt(prec - scale);
  const text = kept.toString().padStart(prec + 1, "0");
  return prec === 0 ? text : `${text.slice(0, -prec)}.${text.slice(-prec)}`;
}

/** `%.pg`: p significant digits, exponent form below 1e-4 or from 1e(p), trailing zeros cut. */
function formatG(x: number, p: number): string {
  const [mantissa, expText] = x.toExponential(p - 1).split("e") as [string, string];
  const exp = Number(expText);
  const trim = (t: string) => (t.includes(".") ? t.replace(/\.?0+$/, "") : t);
  if (exp < -4 || exp >= p) {
    const e = Math.abs(exp) < 10 ? `0${Math.abs(exp)}` : `${Math.abs(exp)}`;
    return `${trim(mantissa)}e${exp < 0 ? "-" : "+"}${e}`;
  }
  return trim(x.toFixed(Math.max(p - 1 - exp, 0)));
}

function formatFloatVerb(verb: string, x: number, spec: Spec): string {
  let s: string;
  const prec = spec.prec;
  if (verb === "f" || verb === "F") s = Number.isFinite(x) ? toFixedGo(Math.abs(x), prec ?? 6) : "";
  else if (verb === "e" || verb === "E") {
    s = Math.abs(x)
      .toExponential(prec ?? 6)
      .replace(/e([+-])(\d)$/, "e$10$2");
    if (verb === "E") s = s.toUpperCase();
  } else if (prec === undefined) s = formatFloat(Math.abs(x), 6);
  else s = formatG(Math.abs(x), Math.max(prec, 1));
  if (verb === "G") s = s.toUpperCase();
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
