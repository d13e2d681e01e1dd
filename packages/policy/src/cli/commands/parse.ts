/**
 * `rego parse <file>`: prints the module's syntax tree as JSON (this engine's own tree, with
 * locations; not OPA's AST encoding). Parse errors go to stderr, exit 1.
 */
import { readFileSync } from "node:fs";
import { parseModule } from "../../syntax/module-parser.js";
import type { CliIO, Command } from "../cli-io.js";
import { reportExpectedFailure } from "../error-report.js";
import { parseFlags, parseOrReportUsage, UsageError } from "../parse-flags.js";

const USAGE = `Usage: rego parse [flags] <file>

Flags:
  -f, --format <fmt>   json (default) or pretty (errors only differ)
      --v0-compatible  parse as Rego v0
`;

const OPTIONS = {
  format: { type: "string", short: "f", default: "json" },
  "v0-compatible": { type: "boolean" },
} as const;

/**
 * The tree as indented JSON: back-references (a rule's `module`) are left out, big integers
 * keep their digits.
 */
export function astJson(tree: unknown): string {
  const ancestors: object[] = [];
  const text = JSON.stringify(
    tree,
    function (this: unknown, _key: string, value: unknown) {
      if (typeof value === "bigint") return `\u0000big:${value}`;
      if (value === null || typeof value !== "object") return value;
      while (ancestors.length > 0 && ancestors.at(-1) !== this) ancestors.pop();
      if (ancestors.includes(value)) return undefined;
      ancestors.push(value);
      return value;
    },
    2,
  );
  return `${text.replace(/"\\u0000big:(-?\d+)"/g, "$1")}\n`;
}

function parse(argv: string[]) {
  const parsed = parseFlags(argv, OPTIONS);
  if (parsed.positionals.length !== 1) throw new UsageError("specify exactly one file");
  return { values: parsed.values, file: parsed.positionals[0] as string };
}

async function runParse(argv: string[], io: CliIO): Promise<number> {
  const parsed = parseOrReportUsage(() => parse(argv), USAGE, io);
  if (!parsed) return 2;
  const { values, file } = parsed;
  let source: string;
  try {
    source = readFileSync(file, "utf8");
  } catch (e) {
    io.stderr(`error: ${(e as Error).message}\n`);
    return 1;
  }
  try {
    io.stdout(astJson(parseModule(file, source, values["v0-compatible"] ?? false)));
    return 0;
  } catch (e) {
    return reportExpectedFailure(io, e, values.format === "json");
  }
}

export const parseCommand: Command = {
  name: "parse",
  summary: "Print the syntax tree of a policy file as JSON",
  usage: USAGE,
  run: runParse,
};
