/**
 * The checks OPA's compiler adds in strict mode (`rego check --strict`), and those of them
 * it makes always for Rego v1 modules, run in OPA's stage order: each stage reports for
 * every module and a stage with errors stops compilation.
 *
 * | check                                   | when                 |
 * |-----------------------------------------|----------------------|
 * | args named input/data                   | always               |
 * | unused imports                          | strict               |
 * | rules / assignments named input, data   | strict or Rego v1    |
 * | duplicate imports                       | strict or Rego v1    |
 * | unused `some` / `every` vars            | always               |
 * | unused assigned vars, unused arguments  | strict               |
 * | deprecated builtins (after all others)  | strict or Rego v1    |
 */
import type { Module } from "../../ast/nodes.js";
import type { RegoError } from "../../errors.js";
import type { SchemaSet } from "../schema-check.js";
import { deprecatedBuiltins, deprecatedCalls } from "./deprecated.js";
import { argumentShadowing, duplicateImports, unusedImports } from "./imports.js";
import { keywordOverrides } from "./keyword-overrides.js";
import { unusedLocals } from "./local-vars.js";
import { importName, isKeywordImport, isV1Compatible, ruleNames } from "./names.js";

/** What `rego check` asks of the compiler beyond its usual checks. */
export interface CheckOptions {
  /** OPA's strict mode (`--strict`). */
  strict?: boolean;
  /** The builtins the capabilities allow (`--capabilities`); absent means all. */
  builtins?: ReadonlySet<string>;
  /**
   * Builtins the capabilities declare that this engine does not implement, with their
   * argument count (undefined: variadic). As OPA, `rego check` accepts calls of them (a
   * policy library may target a runtime that registers its own builtins).
   */
  declaredBuiltins?: ReadonlyMap<string, number | undefined>;
  /** The builtins the capabilities mark deprecated; default OPA's list. */
  deprecated?: ReadonlySet<string>;
  /** Errors a failing stage reports before `error limit reached`; absent or 0: all. */
  maxErrors?: number;
  /** JSON Schemas to type `input` and annotated documents with (`-s/--schema`). */
  schemas?: SchemaSet;
}

/**
 * The stages that run before names are resolved (the resolver rewrites rules in place).
 * `localsFailed` tells the caller that the failing stage was the local-var one, whose
 * errors OPA reports together with the resolver's own renaming errors.
 */
export interface EarlyResult {
  errors: RegoError[];
  localsFailed: boolean;
}

function globalsOf(module: Module, packageRules: Map<string, Set<string>>): Set<string> {
  const out = new Set(packageRules.get(module.pkg.join(".")));
  for (const imp of module.imports) {
    const name = importName(imp);
    if (name && !isKeywordImport(imp)) out.add(name);
  }
  return out;
}

/** Runs the early stages; see the table above. */
export function earlyChecks(modules: Module[], options: CheckOptions = {}): EarlyResult {
  const strict = options.strict === true;
  const sorted = [...modules].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const held = (m: Module) => strict || isV1Compatible(m);
  const errors: RegoError[] = [];
  const stages: ((m: Module) => void)[] = [
    (m) => {
      argumentShadowing(m, errors);
      if (strict) unusedImports(m, errors);
    },
    (m) => held(m) && keywordOverrides(m, errors),
    (m) => held(m) && duplicateImports(m, errors),
  ];
  for (const stage of stages) {
    for (const m of sorted) stage(m);
    if (errors.length > 0) return { errors, localsFailed: false };
  }
  const packageRules = new Map<string, Set<string>>();
  for (const m of modules) {
    const key = m.pkg.join(".");
    const set = packageRules.get(key) ?? new Set<string>();
    for (const n of ruleNames(m)) set.add(n);
    packageRules.set(key, set);
  }
  for (const m of sorted) unusedLocals(m, globalsOf(m, packageRules), strict, errors);
  return { errors, localsFailed: errors.length > 0 };
}

/** The last stage, on resolved modules: calls of deprecated builtins. */
export function lateChecks(modules: Module[], options: CheckOptions = {}): RegoError[] {
  const errors: RegoError[] = [];
  const deprecated = options.deprecated ?? deprecatedBuiltins;
  for (const m of modules) {
    if (options.strict || isV1Compatible(m)) deprecatedCalls(m, deprecated, errors);
  }
  return errors;
}
