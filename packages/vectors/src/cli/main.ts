#!/usr/bin/env node
/** The `vectors` command line: a dispatch table of verbs. */
import { type CliIo, isEntryPoint, processIo } from "@quintet/kit";
import { configTable } from "../config.js";
import { lockNotAvailable } from "../db/session-timeouts.js";
import { DatabaseError, LoadAbortedError, messageOf, UsageError, VectorsError } from "../errors.js";
import { indexCommand } from "./commands/build-index.js";
import { cleanupCommand } from "./commands/cleanup.js";
import { loadCommand } from "./commands/load.js";
import { queryCommand } from "./commands/query.js";
import { type Command, EXIT } from "./io.js";

/** Every verb, in help order. */
export const commands: readonly Command[] = [
  loadCommand,
  queryCommand,
  indexCommand,
  cleanupCommand,
];

/** The general help: verbs and configuration variables. */
export function helpText(): string {
  const verbs = commands.map((c) => `  ${c.name.padEnd(8)} ${c.summary}`);
  const vars = configTable.map(
    ([name, meaning, fallback]) => `  ${name.padEnd(20)} ${meaning} [${fallback}]`,
  );
  return [
    "usage: vectors <command> [options]   (vectors <command> --help for its options)",
    "",
    "commands:",
    ...verbs,
    "",
    "environment:",
    ...vars,
    "",
  ].join("\n");
}

/** Exit status for a failure: usage and configuration 2, busy 4, interrupted 130, else 1. */
function exitCodeOf(error: unknown): number {
  if (error instanceof LoadAbortedError && error.interrupted) return EXIT.interrupted;
  // A table lock another session held past PG_LOCK_TIMEOUT: busy, like a held writer lock.
  if (error instanceof DatabaseError && error.sqlState === lockNotAvailable) return EXIT.busy;
  if (!(error instanceof VectorsError)) return EXIT.failure;
  if (error.code === "usage" || error.code === "invalid_config") return EXIT.usage;
  return error.code === "busy" ? EXIT.busy : EXIT.failure;
}

/** Runs one command line and returns its exit status (never throws). */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    (name === undefined ? io.stderr : io.stdout).write(helpText());
    return name === undefined ? 2 : 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    io.stderr.write(`vectors: unknown command "${name}"\n${helpText()}`);
    return 2;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    io.stderr.write(`vectors ${command.name}: ${messageOf(error)}\n`);
    if (error instanceof UsageError) {
      io.stderr.write(`usage: ${command.usage}\n`);
    }
    return exitCodeOf(error);
  }
}

if (isEntryPoint(import.meta.url)) {
  runCli(process.argv.slice(2), processIo()).then((code) => {
    process.exitCode = code;
  });
}
