/**
 * Go's filepath.Match on slash paths, which OPA uses for a bundle's `exclude_files`: `*`
 * is any run of characters but `/`, `?` one such character, `[...]` a class (`^` or `!`
 * negates it, ranges with `-`), and `\` escapes the next character.
 */

/** One class character (a `\\` escapes the next) and the index after it. */
function classChar(pattern: string, i: number): [string, number] {
  if (pattern[i] === "\\") i++;
  const ch = pattern[i];
  if (ch === undefined) throw new Error("syntax error in pattern");
  return [ch, i + 1];
}

function classMatches(pattern: string, start: number, ch: string): { end: number; ok: boolean } {
  let i = start + 1;
  let negate = false;
  if (pattern[i] === "^" || pattern[i] === "!") {
    negate = true;
    i++;
  }
  let ok = false;
  let first = true;
  while (first || pattern[i] !== "]") {
    first = false;
    const [lo, afterLo] = classChar(pattern, i);
    let hi = lo;
    i = afterLo;
    if (pattern[i] === "-" && pattern[i + 1] !== "]") [hi, i] = classChar(pattern, i + 1);
    if (lo <= ch && ch <= hi) ok = true;
  }
  return { end: i + 1, ok: ok !== negate };
}

function matchAt(pattern: string, p: number, name: string, n: number): boolean {
  while (p < pattern.length) {
    const c = pattern[p] as string;
    if (c === "*") {
      for (let k = n; k <= name.length; k++) {
        if (matchAt(pattern, p + 1, name, k)) return true;
        if (name[k] === "/") return false;
      }
      return false;
    }
    if (n >= name.length) return false;
    const ch = name[n] as string;
    if (c === "?") {
      if (ch === "/") return false;
    } else if (c === "[") {
      if (ch === "/") return false;
      const r = classMatches(pattern, p, ch);
      if (!r.ok) return false;
      p = r.end;
      n++;
      continue;
    } else if (c === "\\") {
      p++;
      if (pattern[p] !== ch) return false;
    } else if (c !== ch) return false;
    p++;
    n++;
  }
  return n === name.length;
}

/** Whether `name` matches the pattern as Go's filepath.Match decides (false on a bad pattern). */
export function globMatch(pattern: string, name: string): boolean {
  try {
    return matchAt(pattern, 0, name, 0);
  } catch {
    return false;
  }
}
