/**
 * The configuration table as plain text, for `--help`.
 */
import { configTable } from "../config.js";

/** One line per variable: name, meaning, default. */
export function configHelp(): string {
  const width = Math.max(...configTable.map((v) => v.name.length));
  return `${configTable
    .map((v) => `  ${v.name.padEnd(width)}  ${v.meaning} (default: ${v.default})`)
    .join("\n")}\n`;
}
