/**
 * `rego parse <file>`: prints a module's syntax tree as `opa parse` does: `--format pretty`
 * (the default) is OPA's indented node view, `--format json` OPA's AST JSON encoding, so
 * tools written for `opa parse` read it. `--json-include locations` adds locations (with
 * their text, base64), `-comments` leaves comments out. Errors: OPA's JSON error document on
 * stderr, exit 1.
 */
import { readFileSync } from "node:fs";
import { commentsJson, OpaAstEncoder, stringifyAst } from "../../ast/opa-json.js";
import { moduleComments } from "../../syntax/module-comments.js";
import { parseModule } from "../../syntax/module-parser.js";
import type { Command, PolicyIo } from "../cli-io.js";
import { reportExpectedFailure } from "../error-report.js";
import { prettyAst } from "../opa-ast-pretty.js";
import { parseFlags, parseOrReportUsage, requirePrettyOrJson, UsageError } from "../parse-flags.js";

const USAGE = `Usage: rego parse [flags] <file>

Flags:
  -f, --format <fmt>         pretty (default) or json (OPA's AST JSON encoding)
      --json-include <list>  with json: "locations" adds locations, "-comments" drops comments
      --v0-compatible        parse as Rego v0
      --v1-compatible        parse as Rego v1 (the default)
`;

const OPTIONS = {
  format: { type: "string", short: "f", default: "pretty" },
  "json-include": { type: "string", default: "" },
  "v0-compatible": { type: "boolean" },
  "v1-compatible": { type: "boolean" },
} as const;

function parse(argv: string[]) {
  const parsed = parseFlags(argv, OPTIONS);
  if (parsed.positionals.length !== 1) throw new UsageError("specify exactly one file");
  requirePrettyOrJson(parsed.values.format);
  return { values: parsed.values, file: parsed.positionals[0] as string };
}

/** OPA's `--json-include`: comma-separated names, a leading `-` turns one off. */
function jsonIncludes(spec: string): { locations: boolean; comments: boolean } {
  const out = { locations: false, comments: true };
  for (const opt of spec.split(",")) {
    const on = !opt.startsWith("-");
    if (opt.endsWith("locations")) out.locations = on;
    if (opt.endsWith("comments")) out.comments = on;
  }
  return out;
}

function moduleJson(file: string, source: string, v0: boolean, spec: string): string {
  const module = parseModule(file, source, v0);
  const include = jsonIncludes(spec);
  const json = new OpaAstEncoder(source, include).module(module);
  if (include.comments) {
    const comments = moduleComments(file, source);
    if (comments.length > 0)
      json.comments = commentsJson(file, source, comments, include.locations);
  }
  return `${stringifyAst(json)}\n`;
}

async function runParse(argv: string[], io: PolicyIo): Promise<number> {
  const parsed = parseOrReportUsage(() => parse(argv), USAGE, io);
  if (!parsed) return 2;
  const { values, file } = parsed;
  let source: string;
  try {
    source = readFileSync(file, "utf8");
  } catch (e) {
    io.stderr.write(`error: ${(e as Error).message}\n`);
    return 1;
  }
  const v0 = values["v0-compatible"] ?? false;
  try {
    if (values.format === "json")
      io.stdout.write(moduleJson(file, source, v0, values["json-include"]));
    else io.stdout.write(prettyAst(parseModule(file, source, v0), source));
    return 0;
  } catch (e) {
    return reportExpectedFailure(io, e, true);
  }
}

export const parseCommand: Command = {
  name: "parse",
  summary: "Print the syntax tree of a policy file (OPA's AST, pretty or JSON)",
  usage: USAGE,
  run: runParse,
};
