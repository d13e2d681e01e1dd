/**
 * `rego check <path>...`: parses and compiles policies without evaluating anything. Silent
 * on success; every error on stderr and exit 1 otherwise. As `opa check`: `--strict` adds
 * OPA's strict-mode checks, `--capabilities` limits the builtins policies may call, and
 * the compiler stops at its first failing stage, reporting at most `--max-errors` (default
 * 10) of its errors and then `error limit reached`, as OPA's compiler does.
 */
import { readFileSync } from "node:fs";
import { lookupBuiltin } from "../../builtins/registry.js";
import { DEFAULT_MAX_ERRORS } from "../../compile/error-limit.js";
import type { CheckOptions } from "../../compile/strict/index.js";
import { buildEngine } from "../../loader/build-engine.js";
import { loadSchemas } from "../../loader/schemas.js";
import { packageVersion } from "../../version.js";
import type { Command, PolicyIo } from "../cli-io.js";
import { reportExpectedFailure } from "../error-report.js";
import {
  parseFlags,
  parseOrReportUsage,
  requirePaths,
  requirePrettyOrJson,
  UsageError,
} from "../parse-flags.js";

const USAGE = `Usage: rego check [flags] <path>...

Flags:
      --capabilities <file|version>  the builtins policies may call (a capabilities JSON file)
  -f, --format <fmt>                 pretty (default) or json
      --ignore <pattern>             skip files and directories with a matching name (repeatable)
  -m, --max-errors <n>               compile errors to report before stopping (default 10;
                                     0 or less: no limit)
  -s, --schema <file|dir>            JSON Schema of input (a file), or schemas for METADATA
                                     schemas: annotations (a directory)
  -S, --strict                       enable compiler strict mode
      --v0-compatible                parse policies as Rego v0
      --v0-v1                        check for Rego v0 and v1 compatibility (policies must be
                                     compatible with both Rego versions; alias --rego-v1)
`;

const OPTIONS = {
  capabilities: { type: "string" },
  format: { type: "string", short: "f", default: "pretty" },
  ignore: { type: "string", multiple: true },
  "max-errors": { type: "string", short: "m", default: String(DEFAULT_MAX_ERRORS) },
  schema: { type: "string", short: "s" },
  strict: { type: "boolean", short: "S" },
  "v0-compatible": { type: "boolean" },
  "v0-v1": { type: "boolean" },
  // OPA's earlier name for --v0-v1, still accepted (hidden) there.
  "rego-v1": { type: "boolean" },
} as const;

async function runCheck(argv: string[], io: PolicyIo): Promise<number> {
  const parsed = parseOrReportUsage(() => parse(argv), USAGE, io);
  if (!parsed) return 2;
  const { values, checks } = parsed;
  try {
    if (values.schema !== undefined) checks.schemas = loadSchemas(values.schema);
    buildEngine(parsed.positionals, {
      v0Compatible: values["v0-compatible"],
      ignore: values.ignore,
      // As OPA, --v0-v1 wins over --v0-compatible.
      v0v1Compatible: values["v0-v1"] === true || values["rego-v1"] === true,
      compileChecks: checks,
    });
    return 0;
  } catch (e) {
    return reportExpectedFailure(io, e, values.format === "json");
  }
}

function parse(argv: string[]) {
  const parsed = parseFlags(argv, OPTIONS);
  requirePaths(parsed.positionals);
  requirePrettyOrJson(parsed.values.format);
  const raw = parsed.values["max-errors"];
  if (!/^-?\d+$/.test(raw)) {
    throw new UsageError(`invalid argument "${raw}" for "-m, --max-errors" flag: not a number`);
  }
  const checks: CheckOptions = { strict: parsed.values.strict === true, maxErrors: Number(raw) };
  if (parsed.values.capabilities !== undefined) {
    Object.assign(checks, loadCapabilities(parsed.values.capabilities));
  }
  return { ...parsed, checks };
}

/**
 * The builtins a capabilities document allows and marks deprecated. `source` is a file, or
 * the name of this version (`v0.1.0`), as `opa check --capabilities` takes a file or an OPA
 * version; no other version's capabilities are known here.
 */
export function loadCapabilities(
  source: string,
): Pick<CheckOptions, "builtins" | "deprecated" | "declaredBuiltins"> {
  const own = `v${packageVersion()}`;
  if (source === own || source === own.slice(1)) return {};
  let text: string;
  try {
    text = readFileSync(source, "utf8");
  } catch {
    throw new UsageError(
      `invalid argument "${source}" for "--capabilities" flag: no such file or capabilities version found: ${source}`,
    );
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`capabilities file ${source}: ${(e as Error).message}`);
  }
  const list = (doc as { builtins?: unknown } | null)?.builtins ?? [];
  if (!Array.isArray(list))
    throw new UsageError(`capabilities file ${source}: builtins must be an array`);
  const builtins = new Set<string>();
  const deprecated = new Set<string>();
  const declaredBuiltins = new Map<string, number | undefined>();
  for (const b of list as CapabilityBuiltin[]) {
    if (typeof b?.name !== "string") {
      throw new UsageError(`capabilities file ${source}: every builtin needs a string name`);
    }
    builtins.add(b.name);
    if (b.deprecated === true) deprecated.add(b.name);
    if (!lookupBuiltin(b.name)) declaredBuiltins.set(b.name, declaredArity(source, b));
  }
  return { builtins, deprecated, declaredBuiltins };
}

interface CapabilityBuiltin {
  name?: unknown;
  deprecated?: unknown;
  decl?: { args?: unknown; variadic?: unknown };
}

/** The argument count a capabilities `decl` gives (OPA's function type); variadic: undefined. */
function declaredArity(source: string, b: CapabilityBuiltin): number | undefined {
  if (b.decl?.variadic !== undefined) return undefined;
  const args = b.decl?.args ?? [];
  if (!Array.isArray(args)) {
    throw new UsageError(
      `capabilities file ${source}: ${String(b.name)}: decl.args must be an array`,
    );
  }
  return args.length;
}

export const checkCommand: Command = {
  name: "check",
  summary: "Check policies for parse and compile errors",
  usage: USAGE,
  run: runCheck,
};
