/**
 * `rego check <path>...`: parses and compiles policies without evaluating anything. Silent
 * on success; every error on stderr and exit 1 otherwise.
 */
import { parseArgs } from "node:util";
import { buildEngine } from "../../loader/build-engine.js";
import type { CliIO, Command } from "../cli-io.js";
import { describeFailure, failureJson, isExpectedFailure } from "../error-report.js";
import { asUsage, UsageError } from "../parse-flags.js";

const USAGE = `Usage: rego check [flags] <path>...

Flags:
  -f, --format <fmt>   pretty (default) or json
      --v0-compatible  parse policies as Rego v0
`;

const OPTIONS = {
  format: { type: "string", short: "f", default: "pretty" },
  "v0-compatible": { type: "boolean" },
} as const;

async function runCheck(argv: string[], io: CliIO): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (e) {
    io.stderr(`error: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  try {
    buildEngine(parsed.positionals, { v0Compatible: parsed.values["v0-compatible"] });
    return 0;
  } catch (e) {
    if (!isExpectedFailure(e)) throw e;
    io.stderr(parsed.values.format === "json" ? failureJson(e) : describeFailure(e));
    return 1;
  }
}

function parse(argv: string[]) {
  const parsed = asUsage(() =>
    parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true }),
  );
  if (parsed.positionals.length === 0)
    throw new UsageError("specify at least one file or directory");
  if (!["pretty", "json"].includes(parsed.values.format))
    throw new UsageError(`unknown format "${parsed.values.format}"`);
  return parsed;
}

export const checkCommand: Command = {
  name: "check",
  summary: "Check policies for parse and compile errors",
  usage: USAGE,
  run: runCheck,
};
