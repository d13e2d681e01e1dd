/**
 * `rego exec --decision <path> -b <policies> <input>...`: one decision per input file (files
 * or directories of .json/.yaml, walked recursively), printed as `opa exec` prints them:
 * `{"result": [{"path", "result"} | {"path", "error"}]}`.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { PolicyEngine } from "../../engine.js";
import { RegoError } from "../../errors.js";
import { buildEngine } from "../../loader/build-engine.js";
import { parseDataText } from "../../loader/data-document.js";
import { jsonText } from "../../value/json-text.js";
import { toJSON, type Value } from "../../value/value.js";
import type { Command, PolicyIo } from "../cli-io.js";
import { describeFailure } from "../error-report.js";
import { parseFlags, parseOrReportUsage, UsageError } from "../parse-flags.js";

const USAGE = `Usage: rego exec [flags] <input file or dir>...

Flags:
      --decision <path>   decision to evaluate, e.g. /limits/allow (default /system/main)
  -b, --bundle <path>     policies and data to load (repeatable)
  -I, --stdin-input       also decide on an input read from stdin
  -f, --format json       output format (only json)
      --fail              exit 1 when a decision is undefined or fails
      --fail-defined      exit 1 when a decision is defined
      --fail-non-empty    exit 1 when a decision is defined and not empty
      --v0-compatible     parse policies as Rego v0
`;

const OPTIONS = {
  decision: { type: "string", default: "/system/main" },
  bundle: { type: "string", short: "b", multiple: true },
  "stdin-input": { type: "boolean", short: "I" },
  format: { type: "string", short: "f", default: "json" },
  fail: { type: "boolean" },
  "fail-defined": { type: "boolean" },
  "fail-non-empty": { type: "boolean" },
  "v0-compatible": { type: "boolean" },
} as const;

interface ExecItem {
  path: string;
  result?: unknown;
  error?: { code: string; message: string };
}

/** Input files below `paths`, sorted within each directory. */
function inputFiles(paths: string[]): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    if (statSync(p).isDirectory()) {
      for (const name of readdirSync(p).sort()) walk(join(p, name));
    } else if (/\.(json|ya?ml)$/i.test(p)) out.push(p);
  };
  for (const p of paths) walk(p);
  return out;
}

function isEmpty(v: unknown): boolean {
  if (Array.isArray(v)) return v.length === 0;
  return v !== null && typeof v === "object" && Object.keys(v).length === 0;
}

/** One input file's decision; evaluated asynchronously so `http.send` can reach the network. */
async function decide(
  engine: PolicyEngine,
  decision: string,
  path: string,
  text: string,
): Promise<ExecItem> {
  let input: Value;
  try {
    input = parseDataText(path, text);
  } catch (e) {
    return { path, error: { code: "invalid_input", message: (e as Error).message } };
  }
  const ref = decision.split("/").filter((s) => s !== "");
  try {
    const value = await engine.evalRefAsync(ref, { input });
    if (value === undefined) {
      return {
        path,
        error: { code: "opa_undefined_error", message: `${decision} decision was undefined` },
      };
    }
    return { path, result: toJSON(value) };
  } catch (e) {
    if (!(e instanceof RegoError)) throw e;
    return { path, error: { code: e.code, message: e.message } };
  }
}

function parse(argv: string[]) {
  const parsed = parseFlags(argv, OPTIONS);
  const v = parsed.values;
  if (v.format !== "json") throw new UsageError(`unknown format "${v.format}" (only json)`);
  if ([v.fail, v["fail-defined"], v["fail-non-empty"]].filter(Boolean).length > 1) {
    throw new UsageError("specify only one of --fail, --fail-defined and --fail-non-empty");
  }
  if (parsed.positionals.length === 0 && !v["stdin-input"])
    throw new UsageError("specify input files or --stdin-input");
  return parsed;
}

async function runExec(argv: string[], io: PolicyIo): Promise<number> {
  const parsed = parseOrReportUsage(() => parse(argv), USAGE, io);
  if (!parsed) return 2;
  const v = parsed.values;
  let engine: PolicyEngine;
  let files: string[];
  try {
    engine = buildEngine(v.bundle ?? [], { v0Compatible: v["v0-compatible"] }).engine;
    files = inputFiles(parsed.positionals);
  } catch (e) {
    io.stderr.write(describeFailure(e));
    return 1;
  }
  const items: ExecItem[] = [];
  for (const f of files) items.push(await decide(engine, v.decision, f, readFileSync(f, "utf8")));
  if (v["stdin-input"])
    items.push(await decide(engine, v.decision, "--stdin-input", await io.readStdin()));
  io.stdout.write(jsonText({ result: items }, true));
  const defined = items.filter((i) => i.result !== undefined);
  if (v.fail && defined.length < items.length) return 1;
  if (v["fail-defined"] && defined.length > 0) return 1;
  if (v["fail-non-empty"] && defined.some((i) => !isEmpty(i.result))) return 1;
  return 0;
}

export const execCommand: Command = {
  name: "exec",
  summary: "Run one decision per input file",
  usage: USAGE,
  run: runExec,
};
