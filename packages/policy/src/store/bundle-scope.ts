/**
 * Paths owned by a bundle are read-only over the REST API, as in OPA: a data write at or
 * above or below a bundle root, and a policy whose package lies there, are refused with 400
 * `invalid_parameter` naming the bundle. A bundle whose roots include `""` owns everything.
 */
import { invalidWrite } from "./store-error.js";

/** A loaded bundle and the roots (slash-separated, no leading slash) its manifest owns. */
export interface BundleScope {
  readonly name: string;
  readonly roots: readonly string[];
  /** The manifest's `revision`, where known (downloaded bundles). */
  readonly revision?: string;
}

/** True when one path is a prefix of the other (OPA's isPathOwned). */
function overlaps(path: readonly string[], root: readonly string[]): boolean {
  const n = Math.min(path.length, root.length);
  for (let i = 0; i < n; i++) if (path[i] !== root[i]) return false;
  return true;
}

/** Throws OPA's 400 when a write at `path` (below `data`) touches a bundle's roots. */
export function checkPathScope(bundles: readonly BundleScope[], path: readonly string[]): void {
  if (bundles.length === 0) return;
  if (path.length === 0) {
    throw invalidWrite("can't write to document root with bundle roots configured");
  }
  for (const { name, roots } of bundles) {
    for (const root of roots) {
      if (root === "") throw invalidWrite(`all paths owned by bundle "${name}"`);
      if (overlaps(path, root.split("/"))) {
        throw invalidWrite(`path ${path.join("/")} is owned by bundle "${name}"`);
      }
    }
  }
}
