/**
 * The command each package puts on the path, read from the package.json files, so tests
 * of the bins follow the manifests rather than a copied list.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root, from packages/quintet/dist/test/. */
export const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));

export interface PackageCommand {
  /** Directory name under packages/. */
  dir: string;
  /** npm name, e.g. @quintet/policy. */
  name: string;
  command: string;
  /** The bin target, relative to the package directory. */
  target: string;
}

interface Manifest {
  name: string;
  bin?: Record<string, string>;
}

export function readManifest(dir: string): Manifest {
  return JSON.parse(readFileSync(join(repoRoot, "packages", dir, "package.json"), "utf8"));
}

/** Every (package, command) pair of the workspace. */
export function packageCommands(): PackageCommand[] {
  const found: PackageCommand[] = [];
  for (const dir of readdirSync(join(repoRoot, "packages")).sort()) {
    const manifest = readManifest(dir);
    for (const [command, target] of Object.entries(manifest.bin ?? {})) {
      found.push({ dir, name: manifest.name, command, target });
    }
  }
  return found;
}
