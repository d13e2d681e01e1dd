#!/usr/bin/env node
// The `llmsrv` entry point: dispatches to one command by name.
import { isEntryPoint, processIo } from "@quintet/kit";
import { ConfigError } from "../errors.js";
import { cpCommand } from "./commands/cp.js";
import { createCommand } from "./commands/create.js";
import { listCommand } from "./commands/list.js";
import { psCommand } from "./commands/ps.js";
import { rmCommand } from "./commands/rm.js";
import { runCommand } from "./commands/run.js";
import { serveCommand } from "./commands/serve.js";
import { showCommand } from "./commands/show.js";
import { stopCommand } from "./commands/stop.js";
import { pullCommand, pushCommand } from "./commands/transfer.js";
import { versionCommand } from "./commands/version.js";
import { EXIT, type ModelsCommand, type ModelsIo } from "./io.js";

/** Every CLI command, by name. */
export const COMMANDS: readonly ModelsCommand[] = [
  serveCommand,
  createCommand,
  listCommand,
  psCommand,
  showCommand,
  runCommand,
  stopCommand,
  rmCommand,
  cpCommand,
  pullCommand,
  pushCommand,
  versionCommand,
];

function usage(): string {
  const rows = COMMANDS.map(
    (c) =>
      `  ${c.name.padEnd(8)}${c.summary}${c.aliases ? ` (alias: ${c.aliases.join(", ")})` : ""}`,
  );
  return [
    "Usage: llmsrv <command> [args]",
    "",
    "Commands:",
    ...rows,
    "",
    "Flags:",
    "  -v, --version  Show version information",
    "",
  ].join("\n");
}

/** Runs the CLI with injected streams; returns the exit code. */
export async function main(argv: readonly string[], io: ModelsIo): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "help" || name === "--help" || name === "-h") {
    (name ? io.stdout : io.stderr).write(usage());
    return name ? EXIT.ok : EXIT.usage;
  }
  // `ollama -v` is a root flag; `llmsrv version` is the same, as a command.
  if (name === "--version" || name === "-v") return versionCommand.run(rest, io);
  const command = COMMANDS.find((c) => c.name === name || c.aliases?.includes(name));
  if (!command) {
    io.stderr.write(`llmsrv: unknown command "${name}"\n${usage()}`);
    return EXIT.usage;
  }
  try {
    return await command.run(rest, io);
  } catch (e) {
    // A bad LLMSRV_HOST/OLLAMA_HOST found when a command builds its client.
    if (!(e instanceof ConfigError)) throw e;
    io.stderr.write(`llmsrv: ${e.message}\n`);
    return EXIT.failure;
  }
}

if (isEntryPoint(import.meta.url)) {
  const code = await main(process.argv.slice(2), processIo());
  process.exit(code);
}
