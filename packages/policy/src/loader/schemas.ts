/**
 * `-s/--schema <file|dir>` as OPA's loader reads it: a file is the schema of `input`; a
 * directory's `.json` files are schemas named by their paths (`<dir>/a/b.json` is
 * `schema.a.b`) for METADATA `schemas:` annotations. Shared by `rego check`, `eval`, `test`.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import type { SchemaSet } from "../compile/schema-check.js";
import { SchemaError, schemaType } from "../compile/schema-types.js";
import { LoadError } from "./load-error.js";

/** One schema file, parsed and checked to convert; problems name the file. */
function readSchema(file: string): unknown {
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    const reason =
      (e as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (e as Error).message;
    throw new LoadError([`${file}: ${reason}`]);
  }
  try {
    schemaType(doc);
  } catch (e) {
    if (e instanceof SchemaError) throw new LoadError([`${file}: ${e.message}`]);
    throw e;
  }
  return doc;
}

function jsonFiles(dir: string, out: string[]): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) jsonFiles(path, out);
    else if (entry.name.endsWith(".json")) out.push(path);
  }
  return out.sort();
}

/** Loads the schemas at `path` (a file or a directory). */
export function loadSchemas(path: string): SchemaSet {
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch {
    throw new LoadError([`${path}: no such file or directory`]);
  }
  if (!isDir) return { input: readSchema(path), byRef: new Map() };
  const byRef = new Map<string, unknown>();
  for (const file of jsonFiles(path, [])) {
    const name = relative(path, file).slice(0, -".json".length).split(sep);
    byRef.set(["schema", ...name].join("."), readSchema(file));
  }
  return { byRef };
}
