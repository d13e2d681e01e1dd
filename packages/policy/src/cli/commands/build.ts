/**
 * `rego build <path>...`: compiles the policies (all or nothing) and writes a gzipped bundle
 * in OPA's layout: `/data.json` (the merged data), each policy file, `/.manifest`.
 * Without `-b` files keep the path they were reached by; with `-b` each path is a bundle
 * root and files are named relative to it.
 */
import { writeFileSync } from "node:fs";
import { relative, sep } from "node:path";
import { engineFromFiles } from "../../loader/build-engine.js";
import { writeBundle } from "../../loader/bundle.js";
import { loadPaths } from "../../loader/load-paths.js";
import type { CliIO, Command } from "../cli-io.js";
import { describeFailure } from "../error-report.js";
import { parseFlags, parseOrReportUsage, requirePaths } from "../parse-flags.js";

const USAGE = `Usage: rego build [flags] <path>...

Flags:
  -b, --bundle            treat each path as a bundle root (names relative to it)
  -o, --output <file>     where to write the bundle (default bundle.tar.gz)
  -r, --revision <rev>    the manifest's revision
      --v0-compatible     parse policies as Rego v0
`;

const OPTIONS = {
  bundle: { type: "boolean", short: "b" },
  output: { type: "string", short: "o", default: "bundle.tar.gz" },
  revision: { type: "string", short: "r", default: "" },
  "v0-compatible": { type: "boolean" },
} as const;

/** A policy file's path inside the bundle. */
function bundlePath(file: string, roots: string[], asBundle: boolean): string {
  if (asBundle) {
    for (const root of roots) {
      const rel = relative(root, file);
      if (!rel.startsWith("..")) return rel.split(sep).join("/");
    }
  }
  return relative(".", file).split(sep).join("/");
}

async function runBuild(argv: string[], io: CliIO): Promise<number> {
  const parsed = parseOrReportUsage(() => parse(argv), USAGE, io);
  if (!parsed) return 2;
  const { values, positionals } = parsed;
  try {
    const files = loadPaths(positionals);
    engineFromFiles(files, { v0Compatible: values["v0-compatible"] });
    const bundle = writeBundle({
      modules: files.modules.map((m) => ({
        path: bundlePath(m.file, positionals, values.bundle ?? false),
        source: m.source,
      })),
      data: files.data,
      revision: values.revision,
    });
    writeFileSync(values.output, bundle);
    return 0;
  } catch (e) {
    io.stderr(describeFailure(e));
    return 1;
  }
}

function parse(argv: string[]) {
  const parsed = parseFlags(argv, OPTIONS);
  requirePaths(parsed.positionals);
  return parsed;
}

export const buildCommand: Command = {
  name: "build",
  summary: "Build a bundle (.tar.gz) from policies and data",
  usage: USAGE,
  run: runBuild,
};
