/** `rego version`: version lines in `opa version`'s layout. */
import { readFileSync } from "node:fs";
import type { CliIO, Command } from "../cli-io.js";

/** The package version, read from package.json next to dist/ (or src/ when run from source). */
export function packageVersion(): string {
  for (const rel of ["../../../../package.json", "../../../package.json"]) {
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

async function runVersion(_argv: string[], io: CliIO): Promise<number> {
  io.stdout(
    [
      `Version: ${packageVersion()}`,
      "Build Commit: unknown",
      "Build Timestamp: unknown",
      "Build Hostname: unknown",
      `Node Version: ${process.version}`,
      `Platform: ${process.platform}/${process.arch}`,
      "Rego Version: v1",
      "WebAssembly: unavailable",
      "",
    ].join("\n"),
  );
  return 0;
}

export const versionCommand: Command = {
  name: "version",
  summary: "Print the version",
  usage: "Usage: rego version\n",
  run: runVersion,
};
