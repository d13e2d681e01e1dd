/**
 * The checks OPA makes of a bundle's `.manifest` roots when it reads the bundle: roots
 * must not overlap, and every policy's package and every data path must lie under one of
 * them. Messages are OPA's (`manifest roots [a b] do not permit ...`).
 */
import { parseModule } from "../syntax/module-parser.js";
import { RegoObject, type Value } from "../value/value.js";
import type { BundleContents } from "./bundle.js";
import { mergeAt } from "./data-document.js";

function contains(root: readonly string[], other: readonly string[]): boolean {
  if (root.length === 1 && root[0] === "") return true;
  if (root.length > other.length) return false;
  return root.every((seg, i) => seg === other[i]);
}

/** Whether two root paths overlap (one contains the other). */
export function rootPathsOverlap(a: string, b: string): boolean {
  const sa = a.split("/");
  const sb = b.split("/");
  return contains(sa, sb) || contains(sb, sa);
}

/** Whether `path` (slash separated) lies under one of `roots`. */
export function rootPathsContain(roots: readonly string[], path: string): boolean {
  const segments = path.split("/");
  return roots.some((r) => contains(r.split("/"), segments));
}

function rootsText(roots: readonly string[]): string {
  return `[${roots.join(" ")}]`;
}

/** A package path as Rego prints it (`package a.b`, `package a["x-y"]`). */
export function packageText(pkg: readonly string[]): string {
  const [head, ...rest] = pkg;
  const parts = rest.map((p) =>
    /^[A-Za-z_][A-Za-z0-9_]*$/.test(p) ? `.${p}` : `[${JSON.stringify(p)}]`,
  );
  return `package ${head ?? ""}${parts.join("")}`;
}

function checkData(roots: readonly string[], node: Value, path: string): void {
  const trimmed = path.replace(/^\/+|\/+$/g, "");
  if (rootPathsContain(roots, trimmed)) return;
  if (node instanceof RegoObject && roots.some((r) => rootPathsContain(trimmed.split("/"), r))) {
    const keys = [...node.entries()].sort(([a], [b]) => (String(a) < String(b) ? -1 : 1));
    for (const [k, v] of keys) checkData(roots, v, `${trimmed}/${String(k)}`);
    return;
  }
  throw new Error(
    `manifest roots ${rootsText(roots)} do not permit data at path '/${trimmed}' (hint: check bundle directory structure)`,
  );
}

/**
 * Throws OPA's message when the bundle's roots overlap or leave one of its policies or
 * data paths out. `modulePath` names a policy as OPA's error does.
 */
export function validateBundleRoots(
  bundle: BundleContents,
  modulePath: (inside: string) => string,
  v0 = false,
): void {
  const roots = bundle.roots;
  for (let i = 0; i < roots.length; i++)
    for (let j = i + 1; j < roots.length; j++)
      if (rootPathsOverlap(roots[i] as string, roots[j] as string))
        throw new Error(`manifest has overlapped roots: '${roots[i]}' and '${roots[j]}'`);
  for (const f of bundle.files) {
    if (!f.path.endsWith(".rego")) continue;
    let pkg: string[];
    try {
      pkg = parseModule(f.path, f.content.toString("utf8"), v0).pkg;
    } catch {
      continue; // Parse errors are reported with every other error when compiling.
    }
    if (!rootPathsContain(roots, pkg.join("/")))
      throw new Error(
        `manifest roots ${rootsText(roots)} do not permit '${packageText(pkg)}' in module '${modulePath(f.path)}'`,
      );
  }
  let data = new RegoObject();
  for (const doc of bundle.documents) data = mergeAt(data, doc.path, doc.value);
  checkData(roots, data, "");
}
