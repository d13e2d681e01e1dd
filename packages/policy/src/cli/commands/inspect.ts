/**
 * `rego inspect <file|dir>`: checks that the policies parse and compile, then lists each
 * namespace (`data.<package>`) with the files that contribute to it.
 */
import { parseArgs } from "node:util";
import { buildEngine } from "../../loader/build-engine.js";
import type { CliIO, Command } from "../cli-io.js";
import { describeFailure, failureJson, isExpectedFailure } from "../error-report.js";
import { asUsage, UsageError } from "../parse-flags.js";

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

async function runInspect(argv: string[], io: CliIO): Promise<number> {
  let values: { format: string; "v0-compatible"?: boolean };
  let path: string;
  try {
    const parsed = asUsage(() =>
      parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true }),
    );
    values = parsed.values;
    if (parsed.positionals.length !== 1)
      throw new UsageError("specify exactly one file or directory");
    if (values.format !== "pretty" && values.format !== "json")
      throw new UsageError(`unknown format "${values.format}"`);
    path = parsed.positionals[0] as string;
  } catch (e) {
    io.stderr(`error: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
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
    if (!isExpectedFailure(e)) throw e;
    io.stderr(values.format === "json" ? failureJson(e) : describeFailure(e));
    return 1;
  }
}

export const inspectCommand: Command = {
  name: "inspect",
  summary: "List the namespaces (packages) and files of policies",
  usage: USAGE,
  run: runInspect,
};
