/**
 * Loading OPA compliance cases: a suite root (one folder per topic) or one or more topic
 * folders, each holding `{"cases": [...]}` JSON files.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";

/** One case as the suite writes it (see the suite's README). */
export interface ComplianceCase {
  note: string;
  modules?: string[];
  data?: unknown;
  input?: unknown;
  input_term?: string;
  query: string;
  want_result?: Record<string, unknown>[];
  sort_bindings?: boolean;
  want_error_code?: string;
  want_error?: string;
  strict_error?: boolean;
}

/** A case with the folder it came from. */
export interface LoadedCase {
  folder: string;
  file: string;
  case: ComplianceCase;
}

function jsonFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => join(dir, f));
}

/** True when `dir` is a suite root: it holds topic folders rather than case files. */
export function isSuiteRoot(dir: string): boolean {
  return (
    readdirSync(dir).some((f) => statSync(join(dir, f)).isDirectory()) &&
    jsonFiles(dir).length === 0
  );
}

/** Cases of one topic folder. */
export function loadFolder(dir: string): LoadedCase[] {
  const folder = basename(dir);
  const out: LoadedCase[] = [];
  for (const file of jsonFiles(dir)) {
    const parsed = JSON.parse(readFileSync(file, "utf8")) as { cases?: ComplianceCase[] };
    for (const c of parsed.cases ?? []) out.push({ folder, file, case: c });
  }
  return out;
}

/** Cases under each directory given: suite roots are expanded into their topic folders. */
export function loadCases(dirs: string[]): LoadedCase[] {
  const out: LoadedCase[] = [];
  for (const dir of dirs) {
    if (!existsSync(dir)) throw new Error(`no such directory: ${dir}`);
    if (isSuiteRoot(dir)) {
      for (const sub of readdirSync(dir).sort()) {
        const path = join(dir, sub);
        if (statSync(path).isDirectory()) out.push(...loadFolder(path));
      }
    } else out.push(...loadFolder(dir));
  }
  return out;
}
