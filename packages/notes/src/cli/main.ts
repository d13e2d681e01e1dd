/**
 * The `notes` command line: a dispatch table from command name to command.
 */

import { type CliIo, type Command, EXIT } from "@quintet/kit";
import { serveCommand } from "./commands/serve.js";
import { configHelp } from "./config-help.js";

/** Every command, by name. */
export const COMMANDS: ReadonlyMap<string, Command> = new Map([[serveCommand.name, serveCommand]]);

function usage(): string {
  const lines = [...COMMANDS.values()].map((c) => `  ${c.name.padEnd(8)}${c.summary}`);
  return `usage: notes <command> [options]\n\ncommands:\n${lines.join("\n")}\n\nenvironment:\n${configHelp()}`;
}

/** Runs the command named by `argv[0]`; returns the exit code. */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    (name === undefined ? io.stderr : io.stdout).write(usage());
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  const command = COMMANDS.get(name);
  if (!command) {
    io.stderr.write(`notes: unknown command "${name}"\n${usage()}`);
    return EXIT.usage;
  }
  return command.run(rest, io);
}
