/**
 * Mutations of Rego source text, as an attacker (or a careless editor) would break it:
 * deleting and duplicating bytes and tokens, inserting brackets, operators and keywords,
 * nesting a fragment very deep, writing huge numbers, and splicing in fragments of other
 * cases. Each mutation takes the text and a random source and returns the new text.
 */
import type { SeededRandom } from "./seeded-random.js";

/** A named mutation; `donor` is text from another case, for splicing. */
export interface Mutation {
  name: string;
  /** True when the result usually still parses, so that compile and eval get exercised. */
  keepsSyntax?: boolean;
  apply(text: string, rng: SeededRandom, donor: string): string;
}

const syntax = [
  "[",
  "]",
  "{",
  "}",
  "(",
  ")",
  "|",
  ",",
  ":",
  ";",
  ".",
  ":=",
  "=",
  "==",
  "!=",
  "<",
  ">=",
  "+",
  "-",
  "*",
  "/",
  "%",
  "&",
  "\n",
  '"',
  "`",
  '$"',
  "#",
  "_",
];

const keywords = [
  "in",
  "not",
  "some",
  "every",
  "with",
  "as",
  "if",
  "else",
  "contains",
  "default",
  "import",
  "package",
  "true",
  "null",
  "input",
  "data",
  "set()",
  "some x in",
  "every x in [1] {",
  "with input as",
  "[x | x := 1]",
  "{k: v | some k, v in input}",
  "count(",
  "walk(input, ",
  "numbers.range(1, 100000000)",
];

const hugeNumbers = [
  "1e400",
  "-1e400",
  "1e-400",
  "1e1000000000",
  "1.7976931348623157e308",
  "18446744073709551616",
  "-9223372036854775809",
  "0.000000000000000000000000000001",
  "123456789".repeat(200),
  "9".repeat(5000),
];

const depths = [10, 100, 400, 999, 1001, 5000, 50_000];

/** Calls that can run long or build large values: the evaluation timeout must stop them. */
const costly = [
  "numbers.range(1, 100000000)",
  'net.cidr_expand("10.0.0.0/8")',
  "[y | some y in numbers.range(1, 10000000)]",
  "{y | some y in numbers.range(1, 10000000)}",
  'concat("", [format_int(y, 10) | some y in numbers.range(1, 10000000)])',
  "bits.lsh(1, 100000000)",
  'regex.match("(a+)+$", concat("", ["a" | some y in numbers.range(1, 100000)]))',
  'glob.match("*a*a*a*a*a*a*b", [], concat("", ["a" | some y in numbers.range(1, 10000)]))',
  "count([v | walk(numbers.range(1, 1000000), [_, v])])",
  "json.marshal(numbers.range(1, 5000000))",
  "sort(numbers.range(1, 5000000))",
];

/** A position in `text` (0..length). */
function at(text: string, rng: SeededRandom): number {
  return rng.int(text.length + 1);
}

/** A span [start, end) of up to `max` characters. */
function span(text: string, rng: SeededRandom, max: number): [number, number] {
  const start = rng.int(Math.max(text.length, 1));
  return [start, Math.min(text.length, start + rng.between(1, max))];
}

/** Rough tokens: words, numbers, strings, single symbols and whitespace runs. */
function tokens(text: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  for (const m of text.matchAll(/\s+|[A-Za-z_][\w.]*|\d[\w.]*|"(?:\\.|[^"\\\n])*"|[:=!<>]=|./g)) {
    out.push({ start: m.index, end: m.index + m[0].length });
  }
  return out;
}

/** Wraps `inner` `depth` levels deep in one kind of nesting. */
function nest(inner: string, depth: number, rng: SeededRandom): string {
  const kinds: [string, string][] = [
    ["[", "]"],
    ["(", ")"],
    ["{", "}"],
    ['{"k": ', "}"],
    ["abs(", ")"],
    ["[x | x := ", "]"],
    ["- ", ""],
    ["1 + ", ""],
    ["not ", ""],
  ];
  const [open, close] = rng.pick(kinds);
  return `${open.repeat(depth)}${inner}${close.repeat(depth)}`;
}

/** A query with a literal appended that can only end by the evaluation timeout. */
export const costlyLiteral: Mutation = {
  name: "costly literal",
  apply: (text, rng) => `${text}; _ = ${rng.pick(costly)}`,
};

export const mutations: Mutation[] = [
  {
    name: "delete bytes",
    apply: (text, rng) => {
      const [s, e] = span(text, rng, 8);
      return text.slice(0, s) + text.slice(e);
    },
  },
  {
    name: "delete token",
    apply: (text, rng) => {
      const ts = tokens(text);
      if (ts.length === 0) return text;
      const t = rng.pick(ts);
      return text.slice(0, t.start) + text.slice(t.end);
    },
  },
  {
    name: "duplicate span",
    apply: (text, rng) => {
      const [s, e] = span(text, rng, 60);
      const copies = rng.pick([1, 2, 10, 200]);
      return text.slice(0, e) + text.slice(s, e).repeat(copies) + text.slice(e);
    },
  },
  {
    name: "insert syntax",
    apply: (text, rng) => {
      const p = at(text, rng);
      return `${text.slice(0, p)}${rng.pick(syntax)}${text.slice(p)}`;
    },
  },
  {
    name: "insert keyword",
    keepsSyntax: true,
    apply: (text, rng) => {
      const p = at(text, rng);
      return `${text.slice(0, p)} ${rng.pick(keywords)} ${text.slice(p)}`;
    },
  },
  {
    name: "deep nesting of a span",
    apply: (text, rng) => {
      const [s, e] = span(text, rng, 20);
      const depth = rng.pick(depths);
      return text.slice(0, s) + nest(text.slice(s, e) || "1", depth, rng) + text.slice(e);
    },
  },
  {
    name: "deep nesting of a term",
    keepsSyntax: true,
    apply: (text, rng) => {
      // Wrapping a whole number or string keeps the text parseable more often.
      const ts = tokens(text).filter((t) => /^[\d"]/.test(text.slice(t.start, t.end)));
      if (ts.length === 0) return text;
      const t = rng.pick(ts);
      const inner = text.slice(t.start, t.end);
      return text.slice(0, t.start) + nest(inner, rng.pick(depths), rng) + text.slice(t.end);
    },
  },
  {
    name: "duplicate line",
    keepsSyntax: true,
    apply: (text, rng) => {
      const lines = text.split("\n");
      const i = rng.int(lines.length);
      lines.splice(i, 0, ...Array(rng.pick([1, 2, 50])).fill(lines[i]));
      return lines.join("\n");
    },
  },
  {
    name: "swap with another case",
    keepsSyntax: true,
    apply: (_text, _rng, donor) => donor,
  },
  {
    name: "huge number",
    keepsSyntax: true,
    apply: (text, rng) => {
      const ts = tokens(text).filter((t) => /^\d/.test(text.slice(t.start, t.end)));
      const n = rng.pick(hugeNumbers);
      if (ts.length === 0 || rng.chance(0.3)) {
        const p = at(text, rng);
        return `${text.slice(0, p)} ${n} ${text.slice(p)}`;
      }
      const t = rng.pick(ts);
      return text.slice(0, t.start) + n + text.slice(t.end);
    },
  },
  {
    name: "splice from another case",
    apply: (text, rng, donor) => {
      const [s, e] = span(text, rng, 40);
      const [ds, de] = span(donor, rng, 80);
      return text.slice(0, s) + donor.slice(ds, de) + text.slice(e);
    },
  },
];
