/**
 * `--ignore <pattern>`: OPA's loader ignore patterns. A pattern is matched, as Go's
 * `filepath.Match` matches, against the bare name of each file and directory found inside
 * a directory given on the command line (never against a path named on the command line);
 * a matching directory is skipped with everything under it. A malformed pattern matches
 * nothing, as in OPA, which drops the pattern error.
 */

/** `[...]` at `i` (just past the `[`) as a regex class, and where it ends; undefined if malformed. */
function charClass(pattern: string, start: number): { source: string; end: number } | undefined {
  let i = start;
  let negated = false;
  if (pattern[i] === "^") {
    negated = true;
    i++;
  }
  const ranges: string[] = [];
  const escapeChar = (c: string) => `\\u{${(c.codePointAt(0) as number).toString(16)}}`;
  const readChar = (): string | undefined => {
    if (pattern[i] === "\\") i++;
    const code = pattern.codePointAt(i);
    if (code === undefined) return undefined;
    const c = String.fromCodePoint(code);
    i += c.length;
    return c;
  };
  // Go requires at least one range and refuses an unescaped `-` or `]` as a bound.
  do {
    if (pattern[i] === "-" || pattern[i] === undefined) return undefined;
    const lo = readChar();
    if (lo === undefined) return undefined;
    let hi = lo;
    if (pattern[i] === "-") {
      i++;
      if (pattern[i] === "]" || pattern[i] === undefined) return undefined;
      const h = readChar();
      if (h === undefined) return undefined;
      hi = h;
    }
    // A reversed range matches nothing in Go; a regex would refuse it.
    if ((lo.codePointAt(0) as number) <= (hi.codePointAt(0) as number))
      ranges.push(lo === hi ? escapeChar(lo) : `${escapeChar(lo)}-${escapeChar(hi)}`);
  } while (pattern[i] !== "]");
  // Go's separator is never matched by a class; names here hold none.
  return { source: `[${negated ? "^/" : ""}${ranges.join("")}]`, end: i + 1 };
}

/** The pattern as an anchored regular expression, or undefined when Go would call it malformed. */
export function globRegExp(pattern: string): RegExp | undefined {
  let source = "";
  for (let i = 0; i < pattern.length; ) {
    const c = pattern[i] as string;
    if (c === "*") {
      source += "[^/]*";
      i++;
    } else if (c === "?") {
      source += "[^/]";
      i++;
    } else if (c === "[") {
      const cls = charClass(pattern, i + 1);
      if (!cls) return undefined;
      source += cls.source;
      i = cls.end;
    } else if (c === "\\") {
      const next = pattern[i + 1];
      if (next === undefined) return undefined;
      source += next.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
      i += 2;
    } else {
      source += c.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
      i++;
    }
  }
  return new RegExp(`^${source}$`, "su");
}

/** A test of names against `--ignore` patterns (false for every name when there are none). */
export function ignoreMatcher(patterns: readonly string[]): (name: string) => boolean {
  const compiled = patterns.map(globRegExp).filter((r): r is RegExp => r !== undefined);
  return (name) => compiled.some((r) => r.test(name));
}
