/**
 * `rego check <path>...`: parses and compiles policies without evaluating anything. Silent
 * on success; every error on stderr and exit 1 otherwise.
 */
import { buildEngine } from "../../loader/build-engine.js";
import type { CliIO, Command } from "../cli-io.js";
import { reportExpectedFailure } from "../error-report.js";
import {
  parseFlags,
  parseOrReportUsage,
  requirePaths,
  requirePrettyOrJson,
} from "../parse-flags.js";

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
  const parsed = parseOrReportUsage(() => parse(argv), USAGE, io);
  if (!parsed) return 2;
  try {
    buildEngine(parsed.positionals, { v0Compatible: parsed.values["v0-compatible"] });
    return 0;
  } catch (e) {
    return reportExpectedFailure(io, e, parsed.values.format === "json");
  }
}

function parse(argv: string[]) {
  const parsed = parseFlags(argv, OPTIONS);
  requirePaths(parsed.positionals);
  requirePrettyOrJson(parsed.values.format);
  return parsed;
}

export const checkCommand: Command = {
  name: "check",
  summary: "Check policies for parse and compile errors",
  usage: USAGE,
  run: runCheck,
};
