/**
 * `rego inspect <file|dir>`: checks that the policies parse and compile, then lists each
 * namespace (`data.<package>`) with the files that contribute to it.
 */
import { buildEngine } from "../../loader/build-engine.js";
import type { CliIO, Command } from "../cli-io.js";
import { reportExpectedFailure } from "../error-report.js";
import { parseFlags, parseOrReportUsage, requirePrettyOrJson, UsageError } from "../parse-flags.js";

const USAGE = `Usage: rego inspect [flags] <file|dir>

Flags:
  -f, --format <fmt>   pretty (default) or json
      --v0-compatible  parse policies as Rego v0
`;

const OPTIONS = {
  format: { type: "string", short: "f", default: "pretty" },
  "v0-compatible": { type: "boolean" },
} as const;

/** Package path → files, both sorted. */
function namespaces(modules: { file: string; packagePath: string }[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const m of [...modules].sort(
    (a, b) => a.packagePath.localeCompare(b.packagePath) || a.file.localeCompare(b.file),
  )) {
    const files = out.get(m.packagePath) ?? [];
    if (!files.includes(m.file)) files.push(m.file);
    out.set(m.packagePath, files);
  }
  return out;
}

function prettyTable(spaces: Map<string, string[]>): string {
  const rows = [...spaces].flatMap(([ns, files]) => files.map((f) => [ns, f] as const));
  const w0 = Math.max("NAMESPACE".length, ...rows.map((r) => r[0].length));
  const w1 = Math.max("FILE".length, ...rows.map((r) => r[1].length));
  const line = `+${"-".repeat(w0 + 2)}+${"-".repeat(w1 + 2)}+\n`;
  const row = (a: string, b: string) => `| ${a.padEnd(w0)} | ${b.padEnd(w1)} |\n`;
  return `NAMESPACES:\n${line}${row("NAMESPACE", "FILE")}${line}${rows.map(([a, b]) => row(a, b)).join("")}${line}`;
}

function parse(argv: string[]) {
  const parsed = parseFlags(argv, OPTIONS);
  if (parsed.positionals.length !== 1)
    throw new UsageError("specify exactly one file or directory");
  requirePrettyOrJson(parsed.values.format);
  return { values: parsed.values, path: parsed.positionals[0] as string };
}

async function runInspect(argv: string[], io: CliIO): Promise<number> {
  const parsed = parseOrReportUsage(() => parse(argv), USAGE, io);
  if (!parsed) return 2;
  const { values, path } = parsed;
  try {
    const { engine } = buildEngine([path], { v0Compatible: values["v0-compatible"] });
    const spaces = namespaces(engine.modules());
    if (values.format === "json") {
      io.stdout(
        `${JSON.stringify({ manifest: { revision: "", roots: [""] }, namespaces: Object.fromEntries(spaces) }, null, 2)}\n`,
      );
    } else io.stdout(prettyTable(spaces));
    return 0;
  } catch (e) {
    return reportExpectedFailure(io, e, values.format === "json");
  }
}

export const inspectCommand: Command = {
  name: "inspect",
  summary: "List the namespaces (packages) and files of policies",
  usage: USAGE,
  run: runInspect,
};
