/**
 * What the output is written for: Rego v1 (`opa fmt`, `--v0-v1`) or v0 (`--v0-compatible`),
 * and the choices OPA derives from the module (ref heads, future-keyword imports).
 */
import type { Import, Module, Term } from "../ast/nodes.js";

/** How a module is read and written. */
export interface FormatOptions {
  /** Parse the source as Rego v0 (`--v0-v1`, `--v0-compatible`). */
  parseV0?: boolean;
  /** Write Rego v0 (`--v0-compatible`); otherwise v1. */
  writeV0?: boolean;
  /** Add `import rego.v1` and drop `future.keywords` imports (`--v0-v1`). */
  addRegoV1Import?: boolean;
  /** Drop `rego.v1` and `future.keywords` imports, redundant in v1 (`--drop-v0-imports`). */
  dropV0Imports?: boolean;
}

/** The decisions the printer takes for the whole module. */
export interface PrintStyle {
  regoV1: boolean;
  /** `p contains x` rather than `p[x]`. */
  contains: boolean;
  /** `if` before rule bodies. */
  ifs: boolean;
  /** Some rule head needs ref-head syntax: every head is written as a ref. */
  refHeads: boolean;
}

/** The path of an import as names (`data.a.b` → ["data","a","b"]); undefined if not plain. */
export function importNames(path: Term): string[] | undefined {
  if (path.type === "var") return [path.name];
  if (path.type !== "ref" || path.head.type !== "var") return undefined;
  const names = [path.head.name];
  for (const p of path.path) {
    if (p.type !== "scalar" || typeof p.value !== "string") return undefined;
    names.push(p.value);
  }
  return names;
}

export function isRegoV1Import(i: Import): boolean {
  const n = importNames(i.path);
  return n?.length === 2 && n[0] === "rego" && n[1] === "v1";
}

/** `future.keywords` or `future.keywords.<kw>`: the keyword, or "*" for all. */
export function futureKeyword(i: Import): string | undefined {
  const n = importNames(i.path);
  if (!n || n.length > 3 || n[0] !== "future" || n[1] !== "keywords") return undefined;
  return n[2] ?? "*";
}

/** The style OPA's formatter picks for `module` under `opts`. */
export function printStyle(module: Module, opts: FormatOptions): PrintStyle {
  const regoV1 = !opts.writeV0;
  let contains = regoV1;
  let ifs = regoV1;
  for (const i of module.imports) {
    const kw = futureKeyword(i);
    if (isRegoV1Import(i) || kw === "*") {
      contains = true;
      ifs = true;
    } else if (kw === "contains") contains = true;
    else if (kw === "if") ifs = true;
  }
  const refHeads = module.rules.some(
    (r) => r.ref.length > 2 || (r.ref.length === 2 && r.kind === "multi"),
  );
  return { regoV1, contains, ifs, refHeads };
}
