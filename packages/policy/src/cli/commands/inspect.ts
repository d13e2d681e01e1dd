/**
 * `rego inspect <file|dir>`: checks that the policies parse and compile, then lists each
 * namespace (`data.<package>`) with the files that contribute to it, and with
 * `-a/--annotations` the METADATA annotations.
 */
import { buildEngine } from "../../loader/build-engine.js";
import { parseModule } from "../../syntax/module-parser.js";
import type { Command, PolicyIo } from "../cli-io.js";
import { reportExpectedFailure } from "../error-report.js";
import { parseFlags, parseOrReportUsage, requirePrettyOrJson, UsageError } from "../parse-flags.js";
import { annotationsJson, annotationsText, collectAnnotations } from "./inspect-annotations.js";

const USAGE = `Usage: rego inspect [flags] <file|dir>

Flags:
  -f, --format <fmt>   pretty (default) or json
  -a, --annotations    list the METADATA annotations
      --v0-compatible  parse policies as Rego v0
`;

const OPTIONS = {
  format: { type: "string", short: "f", default: "pretty" },
  annotations: { type: "boolean", short: "a" },
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

async function runInspect(argv: string[], io: PolicyIo): Promise<number> {
  const parsed = parseOrReportUsage(() => parse(argv), USAGE, io);
  if (!parsed) return 2;
  const { values, path } = parsed;
  try {
    const v0 = values["v0-compatible"] ?? false;
    const { engine, files } = buildEngine([path], { v0Compatible: v0 });
    const spaces = namespaces(engine.modules());
    const annotations = values.annotations
      ? collectAnnotations(files.modules.map((m) => parseModule(m.file, m.source, v0)))
      : [];
    if (values.format === "json") {
      const info: Record<string, unknown> = {
        manifest: { revision: "", roots: [""] },
        namespaces: Object.fromEntries(spaces),
      };
      if (annotations.length > 0) info.annotations = annotationsJson(annotations);
      io.stdout.write(`${JSON.stringify(info, null, 2)}\n`);
    } else io.stdout.write(prettyTable(spaces) + annotationsText(annotations));
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
