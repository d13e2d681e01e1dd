/**
 * Reads the paths given on the command line: `.rego` files are policies; in directories
 * (walked recursively) every `.json`, `.yaml` and `.yml` file is merged into `data` at the
 * path of its directory relative to the directory given, as OPA's loader does outside
 * bundle mode (the file's own name is no part of the path); a data file named directly on
 * the command line merges at the root of `data`; a `.tar.gz` bundle (named, or found in a
 * directory) adds its policies and data files at the root. Every problem is collected and
 * reported together, so nothing is half-loaded.
 */
import { readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { basename, extname, join, relative, sep } from "node:path";
import { RegoObject, type Value } from "../value/value.js";
import { type BundleContents, readBundle } from "./bundle.js";
import { mergeAt, parseDataText } from "./data-document.js";
import { ignoreMatcher } from "./ignore-glob.js";
import { LoadError } from "./load-error.js";

/** A policy file's name (as reached from the argument) and source text. */
export interface PolicySource {
  readonly file: string;
  readonly source: string;
}

/** Everything read from the paths. */
export interface LoadedFiles {
  readonly modules: PolicySource[];
  /** The merged base document (`data`). */
  readonly data: RegoObject;
  /** Data files read, with the path they were merged at. */
  readonly dataFiles: { file: string; path: string[] }[];
  /** Bundles loaded (name = the bundle's path) and the roots their manifests own. */
  readonly bundles?: { name: string; roots: string[] }[];
}

/** How paths are read. */
export interface LoadOptions {
  /** `--ignore` patterns: names of files and directories inside directories to skip. */
  ignore?: readonly string[];
}

const DATA_EXTENSIONS = new Set([".json", ".yaml", ".yml"]);

interface Found {
  kind: "rego" | "data" | "bundle";
  file: string;
  dataPath: string[];
}

/** Files of a directory tree that matter, in a stable (sorted) order. */
function walk(root: string, dir: string, out: Found[], ignored: (name: string) => boolean): void {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    if (ignored(entry.name)) continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) walk(root, full, out, ignored);
    else if (entry.name.endsWith(".rego")) out.push({ kind: "rego", file: full, dataPath: [] });
    else if (entry.name.endsWith(".tar.gz")) out.push({ kind: "bundle", file: full, dataPath: [] });
    else if (DATA_EXTENSIONS.has(extname(entry.name))) {
      const rel = relative(root, dir);
      out.push({ kind: "data", file: full, dataPath: rel === "" ? [] : rel.split(sep) });
    }
  }
}

function findFiles(paths: string[], problems: string[], options: LoadOptions): Found[] {
  const found: Found[] = [];
  const ignored = ignoreMatcher(options.ignore ?? []);
  for (const path of paths) {
    let isDir: boolean;
    try {
      isDir = statSync(path).isDirectory();
    } catch {
      problems.push(`${path}: no such file or directory`);
      continue;
    }
    if (isDir) walk(path, path, found, ignored);
    else if (path.endsWith(".rego")) found.push({ kind: "rego", file: path, dataPath: [] });
    else if (path.endsWith(".tar.gz")) found.push({ kind: "bundle", file: path, dataPath: [] });
    else if (DATA_EXTENSIONS.has(extname(path).toLowerCase()))
      found.push({ kind: "data", file: path, dataPath: [] });
    else problems.push(`${path}: unsupported file type (expected .rego, .json, .yaml or .yml)`);
  }
  return found;
}

/** The file's canonical path, or undefined when it cannot be resolved (a broken link). */
function realPath(file: string): string | undefined {
  try {
    return realpathSync(file);
  } catch {
    return undefined;
  }
}

function readText(file: string, problems: string[]): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch (e) {
    problems.push(`${file}: ${(e as Error).message}`);
    return undefined;
  }
}

function mergeDataFile(data: RegoObject, f: Found, text: string, problems: string[]): RegoObject {
  let value: Value;
  try {
    value = parseDataText(basename(f.file), text);
  } catch (e) {
    problems.push(`${f.file}: ${(e as Error).message}`);
    return data;
  }
  if (f.dataPath.length === 0 && !(value instanceof RegoObject)) {
    problems.push(`${f.file}: unsupported document type: the root of data must be an object`);
    return data;
  }
  try {
    return mergeAt(data, f.dataPath, value);
  } catch (e) {
    problems.push(`${f.file}: ${(e as Error).message}`);
    return data;
  }
}

/** Adds a bundle's policies to `into` and returns `data` with its documents merged. */
function mergeBundle(
  data: RegoObject,
  file: string,
  into: {
    modules: PolicySource[];
    dataFiles: { file: string; path: string[] }[];
    bundles: { name: string; roots: string[] }[];
  },
  problems: string[],
): RegoObject {
  let contents: BundleContents;
  try {
    contents = readBundle(file, readFileSync(file));
  } catch (e) {
    problems.push(`${file}: bundle: ${(e as Error).message}`);
    return data;
  }
  into.modules.push(...contents.modules);
  into.bundles.push({ name: file, roots: contents.roots });
  let merged = data;
  for (const doc of contents.documents) {
    try {
      merged = mergeAt(merged, doc.path, doc.value);
      into.dataFiles.push({ file: doc.file, path: doc.path });
    } catch (e) {
      problems.push(`${doc.file}: ${(e as Error).message}`);
    }
  }
  return merged;
}

/** Reads policies and data from `paths`; throws LoadError listing every problem. */
export function loadPaths(paths: string[], options: LoadOptions = {}): LoadedFiles {
  const { files, problems } = readPaths(paths, options);
  if (problems.length > 0) throw new LoadError(problems);
  return files;
}

/** Reads what can be read from `paths`, and every problem met on the way. */
export function readPaths(
  paths: string[],
  options: LoadOptions = {},
): { files: LoadedFiles; problems: string[] } {
  const problems: string[] = [];
  const modules: PolicySource[] = [];
  const dataFiles: { file: string; path: string[] }[] = [];
  const bundles: { name: string; roots: string[] }[] = [];
  let data = new RegoObject();
  const seen = new Set<string>();
  for (const f of findFiles(paths, problems, options)) {
    // The spec's form `<data_dir> <policies_dir>` may name a directory twice (once inside
    // the other); each file is read once, at its first place.
    const real = realPath(f.file);
    if (real !== undefined && seen.has(real)) continue;
    if (real !== undefined) seen.add(real);
    if (f.kind === "bundle") {
      data = mergeBundle(data, f.file, { modules, dataFiles, bundles }, problems);
      continue;
    }
    const text = readText(f.file, problems);
    if (text === undefined) continue;
    if (f.kind === "rego") modules.push({ file: f.file, source: text });
    else {
      data = mergeDataFile(data, f, text, problems);
      dataFiles.push({ file: f.file, path: f.dataPath });
    }
  }
  return { files: { modules, data, dataFiles, bundles }, problems };
}
