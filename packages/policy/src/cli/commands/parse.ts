/**
 * `rego parse <file>`: prints the module's syntax tree as JSON (this engine's own tree, with
 * locations; not OPA's AST encoding). Parse errors go to stderr, exit 1.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { parseModule } from "../../syntax/module-parser.js";
import type { CliIO, Command } from "../cli-io.js";
import { describeFailure, failureJson, isExpectedFailure } from "../error-report.js";
import { asUsage, UsageError } from "../parse-flags.js";

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

async function runParse(argv: string[], io: CliIO): Promise<number> {
  let file: string;
  let values: { format: string; "v0-compatible"?: boolean };
  try {
    const parsed = asUsage(() =>
      parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true }),
    );
    if (parsed.positionals.length !== 1) throw new UsageError("specify exactly one file");
    file = parsed.positionals[0] as string;
    values = parsed.values;
  } catch (e) {
    io.stderr(`error: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
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
    if (!isExpectedFailure(e)) throw e;
    io.stderr(values.format === "json" ? failureJson(e) : describeFailure(e));
    return 1;
  }
}

export const parseCommand: Command = {
  name: "parse",
  summary: "Print the syntax tree of a policy file as JSON",
  usage: USAGE,
  run: runParse,
};
