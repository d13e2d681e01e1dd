/**
 * units.parse (SI and binary suffixes, milli `m`) and units.parse_bytes (byte suffixes, case
 * insensitive, truncated to an integer). Amounts are multiplied as exact decimals, so
 * "0.0000005M" is exactly 0.5 and "10Ei" keeps every digit.
 */
import { BuiltinError } from "../errors.js";
import { normalizeNumber, type RegoNumber } from "../value/number.js";
import type { Value } from "../value/value.js";
import { asString } from "./args.js";
import type { BuiltinDef } from "./registry-types.js";

/** An exact decimal: coefficient × 10^exponent. */
interface Decimal {
  coefficient: bigint;
  exponent: number;
}

/** Multipliers as (power of ten, power of two). */
type Scale = [number, number];

const SI: Record<string, number> = { k: 3, m: 6, g: 9, t: 12, p: 15, e: 18 };
const BINARY: Record<string, number> = { k: 10, m: 20, g: 30, t: 40, p: 50, e: 60 };

/** units.parse suffixes: case matters only for `m` (milli) against `M` (mega). */
function unitScale(suffix: string): Scale | undefined {
  if (suffix === "") return [0, 0];
  if (suffix === "m") return [-3, 0];
  const head = suffix[0] as string;
  const rest = suffix.slice(1).toLowerCase();
  if (head === "M" && rest === "") return [6, 0];
  if (head === "M" && rest === "i") return [0, 20];
  const letter = head.toLowerCase();
  if (letter === "m") return rest === "i" ? [0, 20] : undefined;
  if (rest === "" && SI[letter] !== undefined) return [SI[letter], 0];
  if (rest === "i" && BINARY[letter] !== undefined) return [0, BINARY[letter]];
  return undefined;
}

/** units.parse_bytes suffixes, already lower-cased: `k`/`kb` (SI) and `ki`/`kib` (binary). */
function byteScale(suffix: string): Scale | undefined {
  if (suffix === "") return [0, 0];
  const m = /^([kmgtpe])(i?)(b?)$/.exec(suffix);
  if (!m) return undefined;
  const letter = m[1] as string;
  return m[2] ? [0, BINARY[letter] as number] : [SI[letter] as number, 0];
}

/** Splits "2.5e3Ki" into "2.5e3" and "Ki"; an `e` is an exponent only before digits. */
function splitAmount(s: string): [string, string] {
  const m = /^[+-]?[0-9.]*(?:[eE][+-]?[0-9]+)?/.exec(s) as RegExpExecArray;
  let amount = m[0];
  if (/^[+-]?$/.test(amount.replace(/[eE].*$/, "")) && amount !== "") amount = "";
  return [amount, s.slice(amount.length)];
}

/** Parses a decimal literal exactly, or undefined when it is not one. */
function parseDecimal(text: string): Decimal | undefined {
  const m = /^([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?$/.exec(text);
  if (!m || (m[2] === "" && (m[3] ?? "") === "")) return undefined;
  const fraction = m[3] ?? "";
  const digits = BigInt(`${m[2]}${fraction}` || "0");
  return {
    coefficient: m[1] === "-" ? -digits : digits,
    exponent: Number(m[4] ?? 0) - fraction.length,
  };
}

function scaleDecimal(d: Decimal, [ten, two]: Scale): Decimal {
  return { coefficient: d.coefficient * 2n ** BigInt(two), exponent: d.exponent + ten };
}

/** The exact value as a Rego number: an integer when it is one, else the nearest float. */
function toRegoNumber(d: Decimal): RegoNumber {
  if (d.exponent >= 0) return normalizeNumber(d.coefficient * 10n ** BigInt(d.exponent));
  const divisor = 10n ** BigInt(-d.exponent);
  if (d.coefficient % divisor === 0n) return normalizeNumber(d.coefficient / divisor);
  return Number(`${d.coefficient}e${d.exponent}`);
}

/** Truncates toward zero, as big.Float.Int does. */
function truncate(d: Decimal): RegoNumber {
  if (d.exponent >= 0) return toRegoNumber(d);
  return normalizeNumber(d.coefficient / 10n ** BigInt(-d.exponent));
}

function parseUnits(args: Value[]): Value {
  const fn = "units.parse";
  const s = asString(fn, args[0] as Value, 1).replaceAll('"', "");
  if (s.includes(" ")) throw new BuiltinError(`${fn}: spaces not allowed in resource strings`);
  const [amount, suffix] = splitAmount(s);
  if (amount === "") throw new BuiltinError(`${fn}: no amount provided`);
  const scale = unitScale(suffix);
  if (!scale) throw new BuiltinError(`${fn}: unit ${suffix} not recognized`);
  const d = parseDecimal(amount);
  if (!d) throw new BuiltinError(`${fn}: could not parse amount to a number`);
  return toRegoNumber(scaleDecimal(d, scale));
}

function parseBytes(args: Value[]): Value {
  const fn = "units.parse_bytes";
  const s = asString(fn, args[0] as Value, 1)
    .replaceAll('"', "")
    .toLowerCase();
  if (s.includes(" ")) throw new BuiltinError(`${fn}: spaces not allowed in resource strings`);
  const [amount, suffix] = splitAmount(s);
  if (amount === "") throw new BuiltinError(`${fn}: no byte amount provided`);
  const d = parseDecimal(amount);
  if (!d) throw new BuiltinError(`${fn}: could not parse byte amount to a number`);
  const scale = byteScale(suffix);
  if (!scale) throw new BuiltinError(`${fn}: byte unit ${suffix} not recognized`);
  return truncate(scaleDecimal(d, scale));
}

export const unitsBuiltins: BuiltinDef[] = [
  { name: "units.parse", args: ["string"], result: "number", impl: parseUnits },
  { name: "units.parse_bytes", args: ["string"], result: "number", impl: parseBytes },
];
