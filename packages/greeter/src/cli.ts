#!/usr/bin/env node
/** The `greeter` binary: a dispatch table of commands. */
import { isEntryPoint } from "@quintet/kit";
import type { CliIO, Command } from "./cli-io.js";
import { greetCommand } from "./commands/greet.js";
import { serveCommand } from "./commands/serve.js";

const commands: Command[] = [serveCommand, greetCommand];

function help(): string {
  const lines = commands.map((c) => `  ${c.name.padEnd(8)} ${c.summary}`);
  return `usage: greeter <command> [options]\n\ncommands:\n${lines.join("\n")}\n`;
}

/** Runs one command line; resolves to the exit code. */
export async function main(argv: string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    io.stdout(help());
    return name === undefined ? 2 : 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    io.stderr(`greeter: unknown command "${name}"\n${help()}`);
    return 2;
  }
  return command.run(rest, io);
}

if (isEntryPoint(import.meta.url)) {
  const stop = new AbortController();
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => stop.abort());
  }
  const code = await main(process.argv.slice(2), {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    signal: stop.signal,
  });
  process.exitCode = code;
}
