/** Command-line usage errors: node:util parseArgs failures become UsageError (exit 2). */
import { type ParseArgsConfig, parseArgs } from "node:util";
import type { PolicyIo } from "./cli-io.js";

/** Thrown for bad command-line usage; commands answer it with exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/**
 * Runs a parseArgs call, turning its exceptions into UsageError.
 * @example const { values } = asUsage(() => parseArgs({ args, options, strict: true }));
 */
export function asUsage<T>(parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

/** A command's flag table, as node:util parseArgs takes it. */
type FlagOptions = NonNullable<ParseArgsConfig["options"]>;

/**
 * Parses a command's flags the way every `rego` command does: positionals allowed, unknown
 * flags rejected (as UsageError).
 */
export function parseFlags<const O extends FlagOptions>(
  argv: string[],
  options: O,
): ReturnType<
  typeof parseArgs<{ args: string[]; options: O; allowPositionals: true; strict: true }>
> {
  return asUsage(() => parseArgs({ args: argv, options, allowPositionals: true, strict: true }));
}

/**
 * Runs a command's argument parser. On failure prints `error: <message>` and the usage text
 * to stderr and returns undefined, for the command to exit 2.
 */
export function parseOrReportUsage<T>(parse: () => T, usage: string, io: PolicyIo): T | undefined {
  try {
    return parse();
  } catch (e) {
    io.stderr.write(`error: ${(e as Error).message}\n\n${usage}`);
    return undefined;
  }
}

/** Fails with a UsageError unless at least one file or directory was named. */
export function requirePaths(positionals: readonly string[]): void {
  if (positionals.length === 0) throw new UsageError("specify at least one file or directory");
}

/** Fails with a UsageError unless `--format` is `pretty` or `json`. */
export function requirePrettyOrJson(format: string): void {
  if (format !== "pretty" && format !== "json") throw new UsageError(`unknown format "${format}"`);
}
