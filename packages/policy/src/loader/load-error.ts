/**
 * Files that could not be read, parsed as data or merged: every problem, one per entry, and
 * with them every error of the policies that were read (so that fixing the data file does
 * not reveal a second round of errors).
 */
import type { RegoError } from "../errors.js";

/** A policy error as a start-up line: `file:row:col: code: message`. */
function policyLine(e: RegoError): string {
  const at = e.location ? `${e.location.file}:${e.location.row}:${e.location.col}: ` : "";
  return `${at}${e.code}: ${e.message}`;
}

export class LoadError extends Error {
  readonly code = "load_error";
  constructor(
    readonly problems: string[],
    readonly policyErrors: readonly RegoError[] = [],
  ) {
    const lines = [...problems, ...policyErrors.map(policyLine)];
    const head =
      lines.length === 1
        ? "1 error occurred during loading"
        : `${lines.length} errors occurred during loading`;
    super(`${head}: ${lines.join("\n")}`);
    this.name = "LoadError";
  }
}
