/** This package's version: `rego version`, capabilities names and the server's provenance. */
import { readFileSync } from "node:fs";

/** The package version, read from package.json next to dist/ (or src/ when run from source). */
export function packageVersion(): string {
  for (const rel of ["../../package.json", "../package.json"]) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), "utf8")) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === "@quintet/policy" && pkg.version) return pkg.version;
    } catch {
      // Try the next layout.
    }
  }
  return "unknown";
}
