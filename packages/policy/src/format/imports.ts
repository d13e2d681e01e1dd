/**
 * The imports as printed: `--v0-v1` adds `import rego.v1` (after the last `future`/`rego`
 * import, or first) and drops `future.keywords` imports it makes redundant; sorting within a
 * group follows OPA's term order (names, then shorter paths first, then alias).
 */
import type { Import, Module, Term } from "../ast/nodes.js";
import { type FormatOptions, futureKeyword, importNames, isRegoV1Import } from "./style.js";

/** An import and the row it sorts by. */
export interface ImportLine {
  imp: Import;
  row: number;
}

/** The imports to print for `module` under `opts`. */
export function importLines(module: Module, opts: FormatOptions): ImportLine[] {
  let lines = module.imports.map((imp) => ({ imp, row: imp.loc.row }));
  if (opts.dropV0Imports && !opts.writeV0)
    return lines.filter((l) => !isRegoV1Import(l.imp) && futureKeyword(l.imp) === undefined);
  if (!opts.addRegoV1Import) return lines;
  if (!module.imports.some(isRegoV1Import)) {
    const rows = module.imports
      .filter((i) => isRegoV1Import(i) || futureKeyword(i) !== undefined)
      .map((i) => i.loc.row);
    const row = rows.length > 0 ? Math.max(...rows) + 1 : 0;
    const loc = { ...module.pkgLoc, row };
    const path: Term = {
      type: "ref",
      head: { type: "var", name: "rego", loc },
      path: [{ type: "scalar", value: "v1", loc }],
      loc,
    };
    lines.push({ imp: { path, loc }, row });
  }
  lines = lines.filter((l) => futureKeyword(l.imp) === undefined);
  return lines;
}

/** OPA's order of imports: by path (name by name, a prefix first), then by alias. */
export function compareImports(a: ImportLine, b: ImportLine): number {
  const pa = importNames(a.imp.path) ?? [];
  const pb = importNames(b.imp.path) ?? [];
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const x = pa[i] as string;
    const y = pb[i] as string;
    if (x !== y) return x < y ? -1 : 1;
  }
  if (pa.length !== pb.length) return pa.length - pb.length;
  const aa = a.imp.alias ?? "";
  const ab = b.imp.alias ?? "";
  return aa < ab ? -1 : aa > ab ? 1 : 0;
}
