/**
 * String builtins (concat, indexof, substring, trim, replace, ...). Positions and lengths
 * count Unicode code points, as Go's rune-based implementations in OPA do.
 */
import { BuiltinError, BuiltinTypeError } from "../errors.js";
import { type PlainNumber, toBigInt, toFloat } from "../value/number.js";
import { RegoObject, RegoSet, typeName, type Value } from "../value/value.js";
import { asInteger, asNumber, asString, oneOfError, operandError } from "./args.js";
import { withNamePrefix } from "./error-prefix.js";
import { goString } from "./go-bytes.js";
import { checkSize } from "./limits.js";
import type { BuiltinContext, BuiltinDef } from "./registry-types.js";

/** The code points of a string (astral characters stay whole). */
function runes(s: string): string[] {
  return Array.from(s);
}

/** Code point index of a UTF-16 index into `s`. */
function runeIndex(s: string, utf16Index: number): number {
  let count = 0;
  for (let i = 0; i < utf16Index; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff) count++;
  }
  return count;
}

/** OPA's error for a collection holding a value of the wrong kind. */
export function elementError(
  fn: string,
  pos: number,
  collection: Value,
  element: Value,
): BuiltinTypeError {
  const kind = typeName(collection);
  return new BuiltinTypeError(
    `${fn}: operand ${pos} must be ${kind} of strings but got ${kind} containing ${typeName(element)}`,
  );
}

/** The strings of an array or set operand (sets in sorted order). */
function stringsOf(fn: string, v: Value, pos: number): string[] {
  let items: Value[];
  if (Array.isArray(v)) items = v;
  else if (v instanceof RegoSet) items = v.sorted();
  else throw oneOfError(fn, pos, ["set", "array"], v);
  return items.map((x) => {
    if (typeof x !== "string") throw elementError(fn, pos, v, x);
    return x;
  });
}

/** A string, or the strings of an array or set, for the `any_*_match` pair. */
function stringOrStrings(fn: string, v: Value, pos: number): string[] {
  if (typeof v === "string") return [v];
  if (!Array.isArray(v) && !(v instanceof RegoSet)) {
    throw oneOfError(fn, pos, ["string", "set", "array"], v);
  }
  return stringsOf(fn, v, pos);
}

function formatInt(args: Value[]): Value {
  const n = asNumber("format_int", args[0] as Value, 1);
  const radix = toFloat(asNumber("format_int", args[1] as Value, 2));
  if (![2, 8, 10, 16].includes(radix)) {
    throw new BuiltinTypeError("format_int: operand 2 must be one of {2, 8, 10, 16}");
  }
  return truncateToBigInt(n).toString(radix);
}

/**
 * Truncation toward zero, as big.Float.Int does. A float beyond the safe range is read from
 * its shortest decimal form, so 1e30 gives exactly 10^30 as OPA's decimal number would.
 */
function truncateToBigInt(n: PlainNumber): bigint {
  if (typeof n === "bigint") return n;
  const t = Math.trunc(n);
  if (Number.isSafeInteger(t) || !Number.isFinite(t)) return Number.isFinite(t) ? toBigInt(t) : 0n;
  const [mantissa, exp] = t.toExponential().split("e") as [string, string];
  const digits = mantissa.replace(".", "").replace("-", "");
  const shift = Number(exp) - (digits.length - 1);
  const magnitude =
    shift >= 0 ? BigInt(digits) * 10n ** BigInt(shift) : BigInt(digits) / 10n ** BigInt(-shift);
  return t < 0 ? -magnitude : magnitude;
}

function indexOf(args: Value[]): Value {
  const haystack = asString("indexof", args[0] as Value, 1);
  const needle = asString("indexof", args[1] as Value, 2);
  if (needle === "") throw new BuiltinError("empty search character");
  const at = haystack.indexOf(needle);
  return at < 0 ? -1 : runeIndex(haystack, at);
}

function indexOfN(args: Value[]): Value {
  const haystack = runes(asString("indexof_n", args[0] as Value, 1));
  const needle = runes(asString("indexof_n", args[1] as Value, 2));
  if (needle.length === 0) throw new BuiltinError("empty search character");
  const found: Value[] = [];
  for (let i = 0; i + needle.length <= haystack.length; i++) {
    if (needle.every((r, j) => haystack[i + j] === r)) found.push(i);
  }
  return found;
}

function substring(args: Value[]): Value {
  const s = asString("substring", args[0] as Value, 1);
  const offset = toFloat(asInteger("substring", args[1] as Value, 2));
  const length = toFloat(asInteger("substring", args[2] as Value, 3));
  if (offset < 0) throw new BuiltinError("negative offset");
  const rs = runes(s);
  if (offset >= rs.length) return "";
  if (length < 0) return rs.slice(offset).join("");
  return rs.slice(offset, Math.min(rs.length, offset + length)).join("");
}

/** Go's strings.Split: an empty separator splits into code points. */
function split(args: Value[]): Value {
  const s = asString("split", args[0] as Value, 1);
  const sep = asString("split", args[1] as Value, 2);
  return sep === "" ? runes(s) : s.split(sep);
}

/**
 * Go's strings.NewReplacer over UTF-8 bytes, for `replace` and `strings.replace_n`: at each
 * position the first pair (in argument order) whose old text matches wins and replaced text
 * is not rescanned. An empty old text matches at every byte position, but not twice in a
 * row, so it can split a multi-byte character (each stray byte then reads as U+FFFD).
 */
export function goReplace(s: string, pairs: [string, string][]): string {
  if (pairs.length === 1 && pairs[0]?.[0] !== "") {
    const [old, replacement] = pairs[0] as [string, string];
    return s.split(old).join(replacement);
  }
  const src = Buffer.from(s, "utf8");
  const olds = pairs.map(([old]) => Buffer.from(old, "utf8"));
  const news = pairs.map(([, replacement]) => Buffer.from(replacement, "utf8"));
  const out: Buffer[] = [];
  let last = 0;
  let previousEmpty = false;
  for (let i = 0; i <= src.length; ) {
    const skipEmpty = previousEmpty;
    const hit = olds.findIndex(
      (old) =>
        (old.length > 0 || !skipEmpty) &&
        i + old.length <= src.length &&
        src.compare(old, 0, old.length, i, i + old.length) === 0,
    );
    previousEmpty = hit >= 0 && (olds[hit] as Buffer).length === 0;
    if (hit < 0) {
      i++;
      continue;
    }
    out.push(src.subarray(last, i), news[hit] as Buffer);
    i += (olds[hit] as Buffer).length;
    last = i;
  }
  out.push(src.subarray(last));
  return goString(Buffer.concat(out));
}

function replace(args: Value[], ctx: BuiltinContext): Value {
  const s = asString("replace", args[0] as Value, 1);
  const old = asString("replace", args[1] as Value, 2);
  const replacement = asString("replace", args[2] as Value, 3);
  checkReplaceSize(ctx, "replace", s, old, replacement);
  return goReplace(s, [[old, replacement]]);
}

/** strings.replace_n: the pattern keys in sorted order, replaced as by Go's NewReplacer. */
function replaceN(args: Value[], ctx: BuiltinContext): Value {
  const fn = "strings.replace_n";
  const patterns = args[0] as Value;
  if (!(patterns instanceof RegoObject)) throw operandError(fn, 1, "object", patterns);
  const s = asString(fn, args[1] as Value, 2);
  const pairs: [string, string][] = [];
  for (const [k, v] of patterns.sortedEntries()) {
    if (typeof k !== "string") {
      throw new BuiltinTypeError(`${fn}: operand 1 non-string key found in pattern object`);
    }
    if (typeof v !== "string") {
      throw new BuiltinTypeError(`${fn}: operand 1 non-string value found in pattern object`);
    }
    pairs.push([k, v]);
    checkReplaceSize(ctx, fn, s, k, v);
  }
  return pairs.length === 0 ? s : goReplace(s, pairs);
}

/** The code points of `cutset`, for Go's strings.Trim family. */
function cutsetOf(cutset: string): Set<string> {
  return new Set(runes(cutset));
}

function trimLeftSet(s: string, cut: Set<string>): string {
  const rs = runes(s);
  let i = 0;
  while (i < rs.length && cut.has(rs[i] as string)) i++;
  return rs.slice(i).join("");
}

function trimRightSet(s: string, cut: Set<string>): string {
  const rs = runes(s);
  let j = rs.length;
  while (j > 0 && cut.has(rs[j - 1] as string)) j--;
  return rs.slice(0, j).join("");
}

/** Go's unicode.IsSpace. */
function isGoSpace(c: string): boolean {
  return /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]$/u.test(c);
}

function trimSpace(s: string): string {
  const rs = runes(s);
  let i = 0;
  let j = rs.length;
  while (i < j && isGoSpace(rs[i] as string)) i++;
  while (j > i && isGoSpace(rs[j - 1] as string)) j--;
  return rs.slice(i, j).join("");
}

/**
 * Go's strings.ToLower/ToUpper map each code point on its own: no context-dependent forms
 * (final sigma) and no expansions (ß stays ß in upper case, İ lowers to plain i).
 */
function mapCase(s: string, upper: boolean): string {
  let ascii = true;
  for (let i = 0; i < s.length && ascii; i++) ascii = s.charCodeAt(i) < 0x80;
  if (ascii) return upper ? s.toUpperCase() : s.toLowerCase();
  let out = "";
  for (const ch of s) {
    const mapped = upper ? ch.toUpperCase() : ch.toLowerCase();
    if (mapped.length === ch.length || Array.from(mapped).length === 1) out += mapped;
    else out += ch === "\u0130" ? "i" : ch;
  }
  return out;
}

/** Builds a builtin taking only string operands. */
function stringFn(
  name: string,
  arity: number,
  result: string,
  body: (...xs: string[]) => Value | undefined,
): BuiltinDef {
  return {
    name,
    args: Array(arity).fill("string"),
    result,
    impl: (args) => body(...args.slice(0, arity).map((a, i) => asString(name, a, i + 1))),
  };
}

function concat(args: Value[], ctx: BuiltinContext): Value {
  const sep = asString("concat", args[0] as Value, 1);
  const parts = stringsOf("concat", args[1] as Value, 2);
  let length = sep.length * Math.max(parts.length - 1, 0);
  for (const p of parts) length += p.length;
  checkSize(ctx, "concat", length);
  return parts.join(sep);
}

/** The length `goReplace(s, [[old, replacement]])` will have, checked before building it. */
function checkReplaceSize(
  ctx: BuiltinContext,
  fn: string,
  s: string,
  old: string,
  replacement: string,
): void {
  if (replacement.length <= old.length) return;
  const matches = old === "" ? s.length + 1 : countOccurrences(s, old);
  checkSize(ctx, fn, s.length + matches * (replacement.length - old.length));
}

/** Non-overlapping occurrences of a non-empty needle. */
function countOccurrences(s: string, needle: string): number {
  let n = 0;
  for (let at = s.indexOf(needle); at >= 0; at = s.indexOf(needle, at + needle.length)) n++;
  return n;
}

/** Go's strings.Count: non-overlapping; an empty needle counts code points plus one. */
function count(s: string, needle: string): Value {
  if (needle === "") return runes(s).length + 1;
  return s.split(needle).length - 1;
}

function anyMatch(name: string, test: (s: string, affix: string) => boolean): BuiltinDef {
  return {
    name,
    args: ["string | array[string] | set[string]", "string | array[string] | set[string]"],
    result: "boolean",
    impl: (args) => {
      const subjects = stringOrStrings(name, args[0] as Value, 1);
      const affixes = stringOrStrings(name, args[1] as Value, 2);
      return subjects.some((s) => affixes.some((a) => test(s, a)));
    },
  };
}

export const stringsBuiltins: BuiltinDef[] = withNamePrefix([
  {
    name: "concat",
    args: ["string", "array[string] | set[string]"],
    result: "string",
    impl: concat,
  },
  { name: "format_int", args: ["number", "number"], result: "string", impl: formatInt },
  { name: "indexof", args: ["string", "string"], result: "number", impl: indexOf },
  { name: "indexof_n", args: ["string", "string"], result: "array[number]", impl: indexOfN },
  { name: "substring", args: ["string", "number", "number"], result: "string", impl: substring },
  { name: "split", args: ["string", "string"], result: "array[string]", impl: split },
  { name: "replace", args: ["string", "string", "string"], result: "string", impl: replace },
  {
    name: "strings.replace_n",
    args: ["object[string, string]", "string"],
    result: "string",
    impl: replaceN,
  },
  stringFn("contains", 2, "boolean", (s, x) => s.includes(x as string)),
  stringFn("startswith", 2, "boolean", (s, x) => s.startsWith(x as string)),
  stringFn("endswith", 2, "boolean", (s, x) => s.endsWith(x as string)),
  stringFn("lower", 1, "string", (s) => mapCase(s, false)),
  stringFn("upper", 1, "string", (s) => mapCase(s, true)),
  stringFn("trim", 2, "string", (s, c) =>
    trimRightSet(trimLeftSet(s, cutsetOf(c as string)), cutsetOf(c as string)),
  ),
  stringFn("trim_left", 2, "string", (s, c) => trimLeftSet(s, cutsetOf(c as string))),
  stringFn("trim_right", 2, "string", (s, c) => trimRightSet(s, cutsetOf(c as string))),
  stringFn("trim_prefix", 2, "string", (s, p) =>
    s.startsWith(p as string) ? s.slice((p as string).length) : s,
  ),
  stringFn("trim_suffix", 2, "string", (s, x) =>
    x !== "" && s.endsWith(x as string) ? s.slice(0, s.length - (x as string).length) : s,
  ),
  stringFn("trim_space", 1, "string", (s) => trimSpace(s)),
  stringFn("strings.reverse", 1, "string", (s) => runes(s).reverse().join("")),
  stringFn("strings.count", 2, "number", (s, x) => count(s, x as string)),
  anyMatch("strings.any_prefix_match", (s, p) => s.startsWith(p)),
  anyMatch("strings.any_suffix_match", (s, x) => s.endsWith(x)),
]);
