#!/usr/bin/env node
/** The `greeter` binary: a dispatch table of commands. */
import { type CliIo, type Command, isEntryPoint, processIo } from "@quintet/kit";
import { greetCommand } from "./commands/greet.js";
import { serveCommand } from "./commands/serve.js";

const commands: Command[] = [serveCommand, greetCommand];

function help(): string {
  const lines = commands.map((c) => `  ${c.name.padEnd(8)} ${c.summary}`);
  return `usage: greeter <command> [options]\n\ncommands:\n${lines.join("\n")}\n`;
}

/** Runs one command line; resolves to the exit code. */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    io.stdout.write(help());
    return name === undefined ? 2 : 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    io.stderr.write(`greeter: unknown command "${name}"\n${help()}`);
    return 2;
  }
  return command.run(rest, io);
}

if (isEntryPoint(import.meta.url)) {
  // A second Ctrl-C changes nothing: in-flight calls keep their grace period.
  const code = await main(process.argv.slice(2), processIo({ secondSignal: "ignored" }));
  process.exitCode = code;
}
