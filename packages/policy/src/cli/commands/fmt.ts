/**
 * `rego fmt [flags] [path...]`: OPA's canonical formatting of `.rego` files (directories are
 * walked). Without flags the formatted text goes to stdout; `--write` rewrites files,
 * `--list` names the files that would change, `--diff` shows the change, and `--fail` exits
 * 2 when a file would change. No path: formats stdin. As `opa fmt`: a file that cannot be
 * formatted stops the run with exit 2; a path that cannot be read, exit 1.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { prettyDiff } from "../../format/diff.js";
import { type FormatOptions, formatSource } from "../../format/format.js";
import type { Command, PolicyIo } from "../cli-io.js";
import { describeFailure } from "../error-report.js";
import { parseFlags, parseOrReportUsage, UsageError } from "../parse-flags.js";

const USAGE = `Usage: rego fmt [flags] [path...]

Formats Rego files in OPA's canonical style (Rego v1); no path formats stdin.

Flags:
  -w, --write          overwrite the original files
  -l, --list           list the files whose formatting differs
  -d, --diff           print a diff of the changes only
      --fail           exit 2 when a file would be reformatted
      --v0-v1          read Rego v0 and write it compatible with v0 and v1 (adds import rego.v1)
      --v0-compatible  read and write Rego v0
      --v1-compatible  read and write Rego v1 (the default)
      --drop-v0-imports
                       drop rego.v1 and future.keywords imports (redundant in Rego v1)
`;

const OPTIONS = {
  write: { type: "boolean", short: "w" },
  list: { type: "boolean", short: "l" },
  diff: { type: "boolean", short: "d" },
  fail: { type: "boolean" },
  "v0-v1": { type: "boolean" },
  "v0-compatible": { type: "boolean" },
  "v1-compatible": { type: "boolean" },
  "drop-v0-imports": { type: "boolean" },
} as const;

type Values = ReturnType<typeof parse>["values"];

/** A failure that ends the run with OPA's exit code for it. */
class FmtFailure extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

function parse(argv: string[]) {
  const parsed = parseFlags(argv, OPTIONS);
  if (parsed.values["v0-v1"] && parsed.values["v0-compatible"])
    throw new UsageError("--v0-v1 and --v0-compatible cannot be combined");
  return parsed;
}

function formatOptions(values: Values): FormatOptions {
  if (values["v0-compatible"]) return { parseV0: true, writeV0: true };
  if (values["v0-v1"]) return { parseV0: true, addRegoV1Import: true };
  return { dropV0Imports: values["drop-v0-imports"] ?? false };
}

/** `.rego` files under `path` (a file named directly counts only with that extension). */
function regoFiles(path: string): string[] {
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch (e) {
    throw new FmtFailure((e as Error).message, 1);
  }
  if (!isDir) return path.endsWith(".rego") ? [path] : [];
  const out: string[] = [];
  for (const entry of readdirSync(path).sort()) out.push(...regoFiles(join(path, entry)));
  return out;
}

function formatted(file: string, source: string, opts: FormatOptions): string {
  try {
    return formatSource(file, source, opts);
  } catch (e) {
    const why = describeFailure(e)
      .replace(/^error: /, "")
      .trimEnd();
    throw new FmtFailure(`failed to format Rego source file: ${why}`, 2);
  }
}

/** One file: what it prints or writes, as `opa fmt` decides from the flags. */
function formatFile(file: string, values: Values, io: PolicyIo): void {
  let source: string;
  try {
    source = readFileSync(file, "utf8");
  } catch (e) {
    throw new FmtFailure(`failed to open file: ${(e as Error).message}`, 2);
  }
  const out = formatted(file, source, formatOptions(values));
  const changed = out !== source;
  if (values.list || values.diff) {
    if (!changed) return;
    io.stdout.write(values.list ? `${file}\n` : `${prettyDiff(source, out)}\n`);
    if (values.fail) throw new FmtFailure("unexpected diff", 2);
    return;
  }
  if (values.fail && changed) throw new FmtFailure("unexpected diff", 2);
  if (values.write) {
    if (changed) writeFileSync(file, out);
    return;
  }
  io.stdout.write(out);
}

async function runFmt(argv: string[], io: PolicyIo): Promise<number> {
  const parsed = parseOrReportUsage(() => parse(argv), USAGE, io);
  if (!parsed) return 2;
  const { values, positionals } = parsed;
  try {
    if (positionals.length === 0) {
      io.stdout.write(formatted("stdin", await io.readStdin(), formatOptions(values)));
      return 0;
    }
    for (const path of positionals)
      for (const file of regoFiles(path)) formatFile(file, values, io);
    return 0;
  } catch (e) {
    if (!(e instanceof FmtFailure)) throw e;
    io.stderr.write(`${e.message}\n`);
    // Reading stdin or formatting it fails with 1, as `opa fmt` does.
    return positionals.length === 0 ? 1 : e.code;
  }
}

export const fmtCommand: Command = {
  name: "fmt",
  summary: "Format Rego source files",
  usage: USAGE,
  run: runFmt,
};
