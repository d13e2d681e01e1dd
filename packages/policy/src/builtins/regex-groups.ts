/**
 * Go's regexp accepts the same name on several capture groups, RE2 (and re2js) rejects it.
 * For such patterns the later groups are renamed before compiling, and the original name of
 * every group is kept so that `${name}` expands as Go's Expand does: to the first group of
 * that name that took part in the match.
 */

/** A pattern with duplicate names made unique, and each group's original name (index 0 unused). */
export interface RenamedGroups {
  pattern: string;
  names: string[];
}

/** Skips a character class starting at `i` (at its `[`); returns the index after its `]`. */
function skipClass(p: string, i: number): number {
  let j = i + 1;
  if (p[j] === "^") j++;
  if (p[j] === "]") j++;
  while (j < p.length && p[j] !== "]") {
    if (p[j] === "\\") j += 2;
    else if (p.startsWith("[:", j)) {
      const end = p.indexOf(":]", j + 2);
      j = end < 0 ? j + 1 : end + 2;
    } else j++;
  }
  return j + 1;
}

/**
 * Renames repeated group names (`(?P<n>` or `(?<n>`) to unique ones; undefined when the
 * pattern has no repeated name.
 */
export function renameDuplicateGroups(p: string): RenamedGroups | undefined {
  const names: string[] = [""];
  const used = new Set<string>();
  let out = "";
  let repeated = false;
  for (let i = 0; i < p.length; ) {
    const c = p[i];
    let next = i + 1;
    if (c === "\\") {
      if (p[i + 1] === "Q") {
        const end = p.indexOf("\\E", i + 2);
        next = end < 0 ? p.length : end + 2;
      } else next = i + 2;
    } else if (c === "[") next = skipClass(p, i);
    else if (c === "(") {
      const named = /^\(\?P?<([A-Za-z0-9_]+)>/.exec(p.slice(i));
      if (named) {
        const name = named[1] as string;
        names.push(name);
        let unique = name;
        for (let k = 2; used.has(unique); k++) unique = `${name}_${k}`;
        repeated ||= unique !== name;
        used.add(unique);
        out += `(?P<${unique}>`;
        i += named[0].length;
        continue;
      }
      if (p[i + 1] !== "?") names.push("");
    }
    out += p.slice(i, next);
    i = next;
  }
  return repeated ? { pattern: out, names } : undefined;
}
