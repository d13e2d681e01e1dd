/**
 * regex.globs_match: whether two regexp-style globs (`.`, `[...]` classes with ranges, `*`
 * and `+` after an atom, `\` escapes, implicitly anchored) match a common non-empty string.
 * Decided by a breadth-first walk of the product of the two globs' automata.
 */
import { BuiltinError } from "../errors.js";

/** One atom: any character (`.`), or a set of accepted code points. */
type Atom = { any: true } | { any: false; chars: Set<number> };

interface Token {
  atom: Atom;
  /** `*` (zero or more), `+` (one or more) or none. */
  flag: "" | "*" | "+";
}

function invalid(input: string[], pos: number, message: string): BuiltinError {
  return new BuiltinError(
    `input:${input.join("")}, pos:${pos}, ${message}: the input provided is invalid`,
  );
}

/** The rune at `i` and whether it was escaped; `next` is where the following rune starts. */
function nextRune(input: string[], i: number): { r: string; escaped: boolean; next: number } {
  if (input[i] !== "\\") return { r: input[i] as string, escaped: false, next: i + 1 };
  if (i === input.length - 1) throw invalid(input, i, "input ends with a \\ (escape) character");
  return { r: input[i + 1] as string, escaped: true, next: i + 2 };
}

function cp(r: string): number {
  return r.codePointAt(0) as number;
}

/** Reads a character class whose `[` ended just before `i`. */
function readSet(input: string[], start: number): { atom: Atom; next: number } {
  const chars = new Set<number>();
  let prev: number | undefined;
  let i = start;
  while (i < input.length) {
    const { r, escaped, next } = nextRune(input, i);
    i = next;
    if (escaped || (r !== "-" && r !== "]")) {
      prev = cp(r);
      chars.add(prev);
      continue;
    }
    if (r === "]") return { atom: { any: false, chars }, next: i };
    if (prev === undefined)
      throw invalid(input, i, "range character '-' must be preceded by a Unicode character");
    if (i >= input.length)
      throw invalid(input, i, "range character '-' must be followed by a Unicode character");
    const end = nextRune(input, i);
    i = end.next;
    if (!end.escaped && (end.r === "]" || end.r === "-")) {
      throw invalid(input, i, "range character '-' cannot be followed by a special symbol");
    }
    if (cp(end.r) < prev) {
      throw invalid(
        input,
        i,
        `range is out of order: '${end.r}' comes before '${String.fromCodePoint(prev)}' in Unicode`,
      );
    }
    for (let c = prev; c <= cp(end.r); c++) chars.add(c);
    prev = undefined;
  }
  throw invalid(input, i, "found [ without matching ]");
}

/** Splits a glob into tokens, with the glob library's error messages. */
export function tokenizeGlob(glob: string): Token[] {
  const input = Array.from(glob);
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const { r, escaped, next } = nextRune(input, i);
    i = next;
    let atom: Atom;
    if (escaped) atom = { any: false, chars: new Set([cp(r)]) };
    else if (r === ".") atom = { any: true };
    else if (r === "]") throw invalid(input, i, "set-close ']' with no preceding '['");
    else if (r === "[") {
      const set = readSet(input, i);
      atom = set.atom;
      i = set.next;
    } else if (r === "*" || r === "+")
      throw invalid(input, i, `flag '${r}' must be preceded by a non-flag`);
    else atom = { any: false, chars: new Set([cp(r)]) };
    let flag: Token["flag"] = "";
    if (i < input.length && (input[i] === "*" || input[i] === "+")) flag = input[i++] as "*" | "+";
    tokens.push({ atom, flag });
  }
  return tokens;
}

/** Whether some character satisfies both atoms. */
function atomsMeet(a: Atom, b: Atom): boolean {
  if (a.any || b.any) return a.any ? b.any || b.chars.size > 0 : a.chars.size > 0;
  const [small, large] = a.chars.size <= b.chars.size ? [a.chars, b.chars] : [b.chars, a.chars];
  for (const c of small) if (large.has(c)) return true;
  return false;
}

/** Positions reachable from `i` without consuming: skipping starred tokens. */
function closure(tokens: Token[], i: number): number[] {
  const out = [i];
  while (i < tokens.length && tokens[i]?.flag === "*") out.push(++i);
  return out;
}

/** Where a position goes after consuming one character matched by its token. */
function advance(tokens: Token[], i: number): number {
  // `*` and `+` may repeat: `+` becomes a starred token after its first character.
  return tokens[i]?.flag === "" ? i + 1 : -(i + 1);
}

/**
 * True when a non-empty string matches both globs. States are pairs of positions; a
 * negative position `-(i+1)` means "inside token i's repetition" (it may repeat or move on).
 */
export function globsIntersect(a: Token[], b: Token[], tick: () => void = () => {}): boolean {
  const expand = (tokens: Token[], s: number): number[] =>
    s >= 0 ? closure(tokens, s) : [s, ...closure(tokens, -s)];
  const tokenAt = (tokens: Token[], s: number): Token | undefined => tokens[s >= 0 ? s : -s - 1];
  const seen = new Set<string>();
  let frontier: [number, number][] = [[0, 0]];
  let consumed = false;
  while (frontier.length > 0) {
    const next: [number, number][] = [];
    for (const [sa, sb] of frontier) {
      const pa = expand(a, sa);
      const pb = expand(b, sb);
      if (consumed && pa.includes(a.length) && pb.includes(b.length)) return true;
      for (const x of pa) {
        for (const y of pb) {
          // The work grows with |a| x |b| and more: long globs check the deadline.
          tick();
          const ta = tokenAt(a, x);
          const tb = tokenAt(b, y);
          if (!ta || !tb || !atomsMeet(ta.atom, tb.atom)) continue;
          const to: [number, number] = [x >= 0 ? advance(a, x) : x, y >= 0 ? advance(b, y) : y];
          const key = `${to[0]},${to[1]}`;
          if (!seen.has(key)) {
            seen.add(key);
            next.push(to);
          }
        }
      }
    }
    frontier = next;
    consumed = true;
  }
  return false;
}
