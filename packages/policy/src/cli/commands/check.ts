/**
 * `rego check <path>...`: parses and compiles policies without evaluating anything. Silent
 * on success; every error on stderr and exit 1 otherwise. As `opa check`: `--strict` adds
 * OPA's strict-mode checks, `--capabilities` limits the builtins policies may call, and
 * compile errors stop at `--max-errors` (default 10) with `error limit reached`.
 */
import { readFileSync } from "node:fs";
import type { CheckOptions } from "../../compile/strict/index.js";
import { RegoError, RegoErrorList } from "../../errors.js";
import { buildEngine } from "../../loader/build-engine.js";
import { packageVersion } from "../../version.js";
import type { CliIO, Command } from "../cli-io.js";
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
  -m, --max-errors <n>               compile errors to report before stopping (default 10;
                                     0 or less: no limit)
  -S, --strict                       enable compiler strict mode
      --v0-compatible                parse policies as Rego v0
`;

const OPTIONS = {
  capabilities: { type: "string" },
  format: { type: "string", short: "f", default: "pretty" },
  "max-errors": { type: "string", short: "m", default: "10" },
  strict: { type: "boolean", short: "S" },
  "v0-compatible": { type: "boolean" },
} as const;

/** OPA's compiler default for `--max-errors`. */
export const DEFAULT_MAX_ERRORS = 10;

async function runCheck(argv: string[], io: CliIO): Promise<number> {
  const parsed = parseOrReportUsage(() => parse(argv), USAGE, io);
  if (!parsed) return 2;
  const { values, maxErrors, checks } = parsed;
  try {
    buildEngine(parsed.positionals, {
      v0Compatible: values["v0-compatible"],
      compileChecks: checks,
    });
    return 0;
  } catch (e) {
    return reportExpectedFailure(io, limitErrors(e, maxErrors), values.format === "json");
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
  const checks: CheckOptions = { strict: parsed.values.strict === true };
  if (parsed.values.capabilities !== undefined) {
    Object.assign(checks, loadCapabilities(parsed.values.capabilities));
  }
  return { ...parsed, maxErrors: Number(raw), checks };
}

/**
 * The builtins a capabilities document allows and marks deprecated. `source` is a file, or
 * the name of this version (`v0.1.0`), as `opa check --capabilities` takes a file or an OPA
 * version; no other version's capabilities are known here.
 */
export function loadCapabilities(source: string): Pick<CheckOptions, "builtins" | "deprecated"> {
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
  for (const b of list as { name?: unknown; deprecated?: unknown }[]) {
    if (typeof b?.name !== "string") {
      throw new UsageError(`capabilities file ${source}: every builtin needs a string name`);
    }
    builtins.add(b.name);
    if (b.deprecated === true) deprecated.add(b.name);
  }
  return { builtins, deprecated };
}

/**
 * OPA's error limit on compile errors: past `max` (when positive) the first `max` errors
 * and `error limit reached`, which OPA adds as soon as the limit is hit. Parse errors come
 * from OPA's loader and are never limited.
 */
export function limitErrors(e: unknown, max: number): unknown {
  if (!(e instanceof RegoErrorList) || max <= 0 || e.errors.length < max) return e;
  if (e.errors.some((x) => x.code === "rego_parse_error")) return e;
  const limit = new RegoError("rego_compile_error", "error limit reached");
  return new RegoErrorList([...e.errors.slice(0, max), limit]);
}

export const checkCommand: Command = {
  name: "check",
  summary: "Check policies for parse and compile errors",
  usage: USAGE,
  run: runCheck,
};
