/**
 * How the CLI prints failures, as OPA does: `1 error occurred: file:row: code: message`, or
 * `N errors occurred:` and one line each; the server's start-up report adds the column.
 */
import { ConfigError } from "@quintet/kit";
import { RegoError, RegoErrorList } from "../errors.js";
import { LoadError } from "../loader/load-error.js";
import { errorItem } from "../server/error-response.js";
import type { PolicyIo } from "./cli-io.js";

/** One error as a line: `file:row[:col]: code: message`. */
export function errorLine(e: RegoError, withColumn: boolean): string {
  if (!e.location) return `${e.code}: ${e.message}`;
  const col = withColumn ? `:${e.location.col}` : "";
  return `${e.location.file}:${e.location.row}${col}: ${e.code}: ${e.message}`;
}

/** The errors an exception stands for, as engine errors when it has them. */
export function regoErrorsOf(e: unknown): RegoError[] | undefined {
  if (e instanceof RegoErrorList) return e.errors;
  if (e instanceof RegoError) return [e];
  return undefined;
}

/** A failure as text for stderr (ends with a newline). */
export function describeFailure(e: unknown, withColumn = false): string {
  const errors = regoErrorsOf(e);
  if (errors) {
    if (errors.length === 1)
      return `1 error occurred: ${errorLine(errors[0] as RegoError, withColumn)}\n`;
    return `${errors.length} errors occurred:\n${errors.map((x) => errorLine(x, withColumn)).join("\n")}\n`;
  }
  if (e instanceof LoadError || e instanceof ConfigError) return `${e.message}\n`;
  return `error: ${e instanceof Error ? e.message : String(e)}\n`;
}

/** A failure as OPA's JSON error document `{"errors": [...]}`. */
export function failureJson(e: unknown): string {
  const errors = regoErrorsOf(e);
  const items = errors
    ? errors.map(errorItem)
    : e instanceof LoadError
      ? [
          ...e.problems.map((message) => ({ code: "load_error", message })),
          ...e.policyErrors.map(errorItem),
        ]
      : [{ code: "internal_error", message: e instanceof Error ? e.message : String(e) }];
  return `${JSON.stringify({ errors: items }, null, 2)}\n`;
}

/** True for failures caused by the user's files or query (as opposed to a crash). */
export function isExpectedFailure(e: unknown): boolean {
  return regoErrorsOf(e) !== undefined || e instanceof LoadError || e instanceof ConfigError;
}

/**
 * Reports a failure caused by the user's files or query on stderr (OPA's JSON error document
 * when `json`) and returns exit code 1; anything else is a crash and is rethrown.
 */
export function reportExpectedFailure(io: PolicyIo, e: unknown, json = false): number {
  if (!isExpectedFailure(e)) throw e;
  io.stderr.write(json ? failureJson(e) : describeFailure(e));
  return 1;
}
