// The index of Ollama's templates in LLMSRV_TEMPLATES (index.json): read, checked, cached.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { LlmsrvError } from "./errors.js";

/** One entry of `index.json`: a template's name and its Jinja text. */
export interface IndexEntry {
  name: string;
  template: string;
  /** Code points, as Go's levenshtein compares runes. */
  runes: number[];
}

const indexCache = new Map<string, IndexEntry[]>();

/** A text's code points, as Go's levenshtein compares runes. */
export function runesOf(s: string): number[] {
  return Array.from(s, (c) => c.codePointAt(0) as number);
}

/** Reads and checks `<dir>/index.json`; a malformed index is a configuration error. */
export function loadTemplateIndex(dir: string): IndexEntry[] {
  const cached = indexCache.get(dir);
  if (cached) return cached;
  const file = join(dir, "index.json");
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new LlmsrvError(
      "config_invalid",
      `cannot read template index ${file}: ${(e as Error).message}`,
    );
  }
  const ok = (x: unknown): x is { name: string; template: string } =>
    typeof x === "object" &&
    x !== null &&
    typeof (x as { name?: unknown }).name === "string" &&
    typeof (x as { template?: unknown }).template === "string";
  if (!Array.isArray(parsed) || !parsed.every(ok))
    throw new LlmsrvError("config_invalid", `${file} must be a JSON array of {"template", "name"}`);
  const entries = parsed.map((e) => ({
    name: e.name,
    template: e.template,
    runes: runesOf(e.template),
  }));
  indexCache.set(dir, entries);
  return entries;
}
