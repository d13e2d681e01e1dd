// Chooses an Ollama Go template for a GGUF created without one, as Ollama does.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type IndexEntry, loadTemplateIndex, runesOf } from "../template-index.js";

/**
 * How Ollama picks a Go template for a GGUF created without one: its Jinja chat template
 * (`tokenizer.chat_template`) is compared with the Jinja texts of an index of known
 * templates (`index.json`: `[{template, name}]`), and the entry with the smallest edit
 * distance wins (the first one on a tie) when that distance is under 100. The chosen
 * `<name>.gotmpl` becomes the model's TEMPLATE, and `<name>.json` (its default parameters,
 * such as stop sequences) its parameters.
 */

/** Ollama's bound: a closer match than this many edits, or none. */
const MAX_DISTANCE = 100;

export interface DetectedTemplate {
  name: string;
  /** The Go template text (line endings normalised to `\n`, as Ollama does). */
  template: string;
  /** Default parameters, e.g. `{ stop: [...] }`. */
  parameters: Record<string, unknown> | undefined;
}

/**
 * Levenshtein distance of `a` and `b` when it is at most `bound`, else `bound + 1`: only
 * a band of `2 * bound + 1` diagonals is computed, so a comparison costs O(length × bound)
 * rather than O(length²) (chat templates are kilobytes; the index has dozens).
 */
export function boundedDistance(a: readonly number[], b: readonly number[], bound: number): number {
  if (Math.abs(a.length - b.length) > bound) return bound + 1;
  const inf = bound + 1;
  let prev = new Int32Array(b.length + 1).fill(inf);
  let cur = new Int32Array(b.length + 1).fill(inf);
  for (let j = 0; j <= Math.min(b.length, bound); j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const from = Math.max(1, i - bound);
    const to = Math.min(b.length, i + bound);
    // The cell left of the band may hold a value from two rows ago: reset it.
    cur[from - 1] = from === 1 && i <= bound ? i : inf;
    let rowMin = cur[from - 1] as number;
    for (let j = from; j <= to; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const v = Math.min(
        (prev[j - 1] as number) + cost,
        (prev[j] as number) + 1,
        (cur[j - 1] as number) + 1,
      );
      cur[j] = Math.min(v, inf);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > bound) return inf;
    [prev, cur] = [cur, prev];
  }
  return Math.min(prev[b.length] as number, inf);
}

/** The index entry closest to `chatTemplate` (under 100 edits), as Ollama's `template.Named`. */
export function closestTemplateName(
  chatTemplate: string,
  index: readonly IndexEntry[],
): string | undefined {
  const runes = runesOf(chatTemplate);
  let best: IndexEntry | undefined;
  let bestScore = MAX_DISTANCE;
  for (const entry of index) {
    // Only a strictly closer entry can win, so the bound shrinks as matches are found.
    const d = boundedDistance(runes, entry.runes, bestScore - 1);
    if (d < bestScore) {
      bestScore = d;
      best = entry;
    }
  }
  return best?.name;
}

/** The template Ollama would choose for a GGUF's chat template, from the folder `dir`. */
export function detectTemplate(dir: string, chatTemplate: string): DetectedTemplate | undefined {
  const name = closestTemplateName(chatTemplate, loadTemplateIndex(dir));
  if (name === undefined) return undefined;
  const file = join(dir, `${name}.gotmpl`);
  if (!existsSync(file)) return undefined;
  const template = readFileSync(file, "utf8").replaceAll("\r\n", "\n");
  const paramsFile = join(dir, `${name}.json`);
  const parameters = existsSync(paramsFile)
    ? (JSON.parse(readFileSync(paramsFile, "utf8")) as Record<string, unknown>)
    : undefined;
  return { name, template, parameters };
}
