/**
 * "Did you mean ...?" hints for validation messages: candidates within a small edit distance
 * of what was typed (a change of case alone counts as one edit), closest first.
 */

/** Edit distance with insertions, deletions, substitutions and adjacent swaps. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) (d[0] as number[])[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const row = d[i] as number[];
    const prev = d[i - 1] as number[];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(
        (prev[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (prev[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        v = Math.min(v, ((d[i - 2] as number[])[j - 2] as number) + 1);
      }
      row[j] = v;
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

function lexicalDistance(a: string, b: string): number {
  if (a === b) return 0;
  const la = a.toLowerCase();
  const lb = b.toLowerCase();
  return la === lb ? 1 : editDistance(la, lb);
}

/** Options close enough to `input`, closest first (stable for ties). */
export function suggestionList(input: string, options: string[]): string[] {
  const threshold = Math.max(1, Math.floor(input.length * 0.4) + 1);
  return options
    .map((option) => ({ option, distance: lexicalDistance(input, option) }))
    .filter((o) => o.distance <= threshold)
    .sort((x, y) => x.distance - y.distance)
    .map((o) => o.option);
}

/** `"a"`, `"a" or "b"`, `"a", "b", or "c"` (at most five). */
export function quotedOrList(items: string[]): string {
  const quoted = items.slice(0, 5).map((i) => `"${i}"`);
  if (quoted.length === 2) return `${quoted[0]} or ${quoted[1]}`;
  return quoted
    .map((q, i) => (i === 0 ? q : i === quoted.length - 1 ? `, or ${q}` : `, ${q}`))
    .join("");
}

/** ` Did you mean "x"?` when there are suggestions, else nothing. */
export function didYouMean(prefix: string, typed: string, options: string[]): string {
  const suggested = suggestionList(typed, options);
  return suggested.length > 0 ? ` ${prefix} ${quotedOrList(suggested)}?` : "";
}
