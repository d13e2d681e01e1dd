/**
 * Builds a compiled PolicyEngine from command-line paths, all or nothing: load problems,
 * every parse error of every file, then compile errors, each thrown as one list.
 */
import type { CheckOptions } from "../compile/strict/index.js";
import { PolicyEngine } from "../engine.js";
import { type RegoError, RegoErrorList } from "../errors.js";
import { RegoObject } from "../value/value.js";
import { LoadError } from "./load-error.js";
import { type LoadedFiles, readPaths } from "./load-paths.js";

/** Options for building an engine from files. */
export interface BuildOptions {
  v0Compatible?: boolean;
  /** Rego v0 that must also be valid Rego v1 (`rego check --v0-v1`). */
  v0v1Compatible?: boolean;
  strictBuiltinErrors?: boolean;
  /** Strict mode and capabilities for the compiler (`rego check`). */
  compileChecks?: CheckOptions;
  /** `--ignore` patterns for the files read (see ignore-glob.ts). */
  ignore?: readonly string[];
}

function byLocation(a: RegoError, b: RegoError): number {
  const fa = a.location?.file ?? "";
  const fb = b.location?.file ?? "";
  if (fa !== fb) return fa < fb ? -1 : 1;
  return (
    (a.location?.row ?? 0) - (b.location?.row ?? 0) ||
    (a.location?.col ?? 0) - (b.location?.col ?? 0)
  );
}

/** Adds the loaded modules and data to a new engine and compiles it. */
export function engineFromFiles(files: LoadedFiles, options: BuildOptions = {}): PolicyEngine {
  const engine = new PolicyEngine({
    v0Compatible: options.v0Compatible,
    v0v1Compatible: options.v0v1Compatible,
    strictBuiltinErrors: options.strictBuiltinErrors,
    compileChecks: options.compileChecks,
  });
  const parseErrors: RegoError[] = [];
  for (const m of files.modules) {
    try {
      engine.addModule(m.file, m.source);
    } catch (e) {
      if (!(e instanceof RegoErrorList)) throw e;
      parseErrors.push(...e.errors);
    }
  }
  if (parseErrors.length > 0) throw new RegoErrorList(parseErrors.sort(byLocation));
  engine.addData([], files.data);
  engine.compile();
  return engine;
}

/**
 * Loads `paths` and returns a compiled engine. Throws LoadError (unreadable or conflicting
 * files) or RegoErrorList (parse or compile errors); never returns a partial engine.
 */
export function buildEngine(
  paths: string[],
  options: BuildOptions = {},
): { engine: PolicyEngine; files: LoadedFiles } {
  const { files, problems } = readPaths(paths, { ignore: options.ignore });
  if (problems.length > 0) throw new LoadError(problems, policyErrors(files, options));
  return { engine: engineFromFiles(files, options), files };
}

/** The parse and compile errors of the policies read, reported along with load problems. */
function policyErrors(files: LoadedFiles, options: BuildOptions): RegoError[] {
  try {
    engineFromFiles({ ...files, data: new RegoObject() }, options);
    return [];
  } catch (e) {
    if (e instanceof RegoErrorList) return e.errors;
    throw e;
  }
}
