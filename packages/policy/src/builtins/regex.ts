/**
 * Regular expression builtins with RE2 syntax and Go's regexp semantics (via re2js), plus
 * regex.template_match and regex.globs_match. Compiled patterns are kept in a small LRU.
 */
import { RE2JS } from "re2js";
import { BuiltinError } from "../errors.js";
import { toFloat } from "../value/number.js";
import type { Value } from "../value/value.js";
import { asInteger, asString } from "./args.js";
import { withNamePrefix } from "./error-prefix.js";
import { checkSize } from "./limits.js";
import { globsIntersect, tokenizeGlob } from "./regex-globs.js";
import { renameDuplicateGroups } from "./regex-groups.js";
import type { BuiltinContext, BuiltinDef } from "./registry-types.js";

const CACHE_LIMIT = 500;
const compiled = new Map<string, RE2JS>();

/** Compiles (or recalls) a pattern; a syntax error becomes a builtin error with Go's text. */
export function compileRegex(pattern: string): RE2JS {
  const hit = compiled.get(pattern);
  if (hit) {
    // Refresh recency: Map keeps insertion order, so the oldest entry is first.
    compiled.delete(pattern);
    compiled.set(pattern, hit);
    return hit;
  }
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern);
  } catch (e) {
    re = compileWithDuplicateNames(pattern, e as Error);
  }
  compiled.set(pattern, re);
  if (compiled.size > CACHE_LIMIT) compiled.delete(compiled.keys().next().value as string);
  return re;
}

/** Original group names of patterns compiled with renamed duplicates. */
const originalNames = new WeakMap<RE2JS, string[]>();

/** Go allows a name on several groups: retry with unique names, or report the first error. */
function compileWithDuplicateNames(pattern: string, error: Error): RE2JS {
  const renamed = /duplicate capture group name/.test(error.message)
    ? renameDuplicateGroups(pattern)
    : undefined;
  if (!renamed) throw new BuiltinError(error.message);
  try {
    const re = RE2JS.compile(renamed.pattern);
    originalNames.set(re, renamed.names);
    return re;
  } catch (e) {
    throw new BuiltinError((e as Error).message.replace(renamed.pattern, pattern));
  }
}

/** Index of the group `name` refers to: the first of that name that took part in the match. */
function groupIndex(re: RE2JS, name: string, m: number[]): number | undefined {
  if (/^\d+$/.test(name)) return Number(name);
  const names = originalNames.get(re);
  if (!names) return re.namedGroups()[name];
  return names.findIndex((n, i) => n === name && (m[2 * i] ?? -1) >= 0);
}

/** Go's FindAll n: negative means all, zero means none. */
function limitOf(fn: string, v: Value, pos: number): number {
  const n = toFloat(asInteger(fn, v, pos));
  return n < 0 ? -1 : n;
}

function allIndexes(re: RE2JS, s: string, n: number): number[][] {
  if (n === 0) return [];
  return (re.re2().findAllSubmatchIndex(s, n) as number[][] | null) ?? [];
}

/** Go's Regexp.Split(s, -1). */
function goSplit(re: RE2JS, s: string): string[] {
  if (s === "" && re.pattern() !== "") return [""];
  const out: string[] = [];
  let beg = 0;
  let end = 0;
  for (const m of allIndexes(re, s, -1)) {
    end = m[0] as number;
    if ((m[1] as number) !== 0) out.push(s.slice(beg, end));
    beg = m[1] as number;
  }
  if (end !== s.length) out.push(s.slice(beg));
  return out;
}

/** Go's Regexp.Expand: `$1`, `${1}`, `$name`, `${name}`, `$$`; unknown names expand to "". */
function expand(template: string, re: RE2JS, s: string, m: number[]): string {
  const groupText = (name: string): string => {
    let idx = groupIndex(re, name, m);
    if (idx === undefined || idx < 0 || idx * 2 + 1 >= m.length) return "";
    idx *= 2;
    return (m[idx] as number) < 0 ? "" : s.slice(m[idx], m[idx + 1]);
  };
  let out = "";
  for (let i = 0; i < template.length; i++) {
    const c = template[i];
    if (c !== "$") {
      out += c;
      continue;
    }
    if (template[i + 1] === "$") {
      out += "$";
      i++;
      continue;
    }
    const braced = /^\{([A-Za-z0-9_]+)\}/.exec(template.slice(i + 1));
    const bare = braced ? null : /^[A-Za-z0-9_]+/.exec(template.slice(i + 1));
    if (braced) {
      out += groupText(braced[1] as string);
      i += braced[0].length;
    } else if (bare) {
      out += groupText(bare[0]);
      i += bare[0].length;
    } else out += "$";
  }
  return out;
}

function replaceAllExpand(s: string, re: RE2JS, template: string, ctx: BuiltinContext): string {
  let out = "";
  let last = 0;
  for (const m of allIndexes(re, s, -1)) {
    out += s.slice(last, m[0]) + expand(template, re, s, m);
    last = m[1] as number;
    // Every match may add the whole template: the result is bounded as it grows.
    ctx.checkCancel();
    checkSize(ctx, "regex.replace", out.length);
  }
  return out + s.slice(last);
}

function regexMatch(name: string): BuiltinDef {
  return {
    name,
    args: ["string", "string"],
    result: "boolean",
    impl: (args) => {
      const pattern = asString(name, args[0] as Value, 1);
      const value = asString(name, args[1] as Value, 2);
      return compileRegex(pattern).test(value);
    },
  };
}

function isValid(args: Value[]): Value {
  const pattern = args[0];
  if (typeof pattern !== "string") return false;
  try {
    compileRegex(pattern);
    return true;
  } catch {
    return false;
  }
}

function findN(args: Value[]): Value {
  const re = compileRegex(asString("regex.find_n", args[0] as Value, 1));
  const s = asString("regex.find_n", args[1] as Value, 2);
  const n = limitOf("regex.find_n", args[2] as Value, 3);
  return allIndexes(re, s, n).map((m) => s.slice(m[0], m[1]));
}

function findAllSubmatch(args: Value[]): Value {
  const fn = "regex.find_all_string_submatch_n";
  const re = compileRegex(asString(fn, args[0] as Value, 1));
  const s = asString(fn, args[1] as Value, 2);
  const n = limitOf(fn, args[2] as Value, 3);
  return allIndexes(re, s, n).map((m) => {
    const groups: Value[] = [];
    for (let g = 0; g < m.length; g += 2) {
      groups.push((m[g] as number) < 0 ? "" : s.slice(m[g], m[g + 1]));
    }
    return groups;
  });
}

function templateMatch(args: Value[]): Value {
  const fn = "regex.template_match";
  const template = asString(fn, args[0] as Value, 1);
  const value = asString(fn, args[1] as Value, 2);
  const open = asString(fn, args[2] as Value, 3);
  const close = asString(fn, args[3] as Value, 4);
  if (open.length !== 1) {
    throw new BuiltinError(
      `start delimiter has to be exactly one character long but is ${open.length} long`,
    );
  }
  if (close.length !== 1) {
    throw new BuiltinError(
      `end delimiter has to be exactly one character long but is ${close.length} long`,
    );
  }
  return compileRegex(templatePattern(template, open, close)).test(value);
}

/** The anchored regex of a template: text outside delimiters is literal. */
function templatePattern(template: string, open: string, close: string): string {
  let pattern = "^";
  let level = 0;
  let start = 0;
  let literalFrom = 0;
  for (let i = 0; i < template.length; i++) {
    if (template[i] === open) {
      if (++level === 1) start = i;
    } else if (template[i] === close) {
      level--;
      if (level < 0) throw new BuiltinError(`unbalanced braces in ${JSON.stringify(template)}`);
      if (level === 0) {
        const inner = template.slice(start + 1, i);
        compileRegex(`^${inner}$`);
        pattern += `${RE2JS.quote(template.slice(literalFrom, start))}(${inner})`;
        literalFrom = i + 1;
      }
    }
  }
  if (level !== 0) throw new BuiltinError(`unbalanced braces in ${JSON.stringify(template)}`);
  return `${pattern + RE2JS.quote(template.slice(literalFrom))}$`;
}

function globsMatch(args: Value[], ctx: BuiltinContext): Value {
  const a = tokenizeGlob(asString("regex.globs_match", args[0] as Value, 1));
  const b = tokenizeGlob(asString("regex.globs_match", args[1] as Value, 2));
  return globsIntersect(a, b, () => ctx.checkCancel());
}

export const regexBuiltins: BuiltinDef[] = withNamePrefix([
  regexMatch("regex.match"),
  regexMatch("re_match"),
  { name: "regex.is_valid", args: ["any"], result: "boolean", impl: isValid },
  {
    name: "regex.split",
    args: ["string", "string"],
    result: "array[string]",
    impl: (args) =>
      goSplit(
        compileRegex(asString("regex.split", args[0] as Value, 1)),
        asString("regex.split", args[1] as Value, 2),
      ),
  },
  {
    name: "regex.find_n",
    args: ["string", "string", "number"],
    result: "array[string]",
    impl: findN,
  },
  {
    name: "regex.find_all_string_submatch_n",
    args: ["string", "string", "number"],
    result: "array[array[string]]",
    impl: findAllSubmatch,
  },
  {
    name: "regex.replace",
    args: ["string", "string", "string"],
    result: "string",
    impl: (args, ctx) => {
      const s = asString("regex.replace", args[0] as Value, 1);
      const re = compileRegex(asString("regex.replace", args[1] as Value, 2));
      return replaceAllExpand(s, re, asString("regex.replace", args[2] as Value, 3), ctx);
    },
  },
  {
    name: "regex.template_match",
    args: ["string", "string", "string", "string"],
    result: "boolean",
    impl: templateMatch,
  },
  { name: "regex.globs_match", args: ["string", "string"], result: "boolean", impl: globsMatch },
]);
