#!/usr/bin/env node
import { isEntryPoint } from "@quintet/kit";
/**
 * `rego`: the command-line tool of the policy engine. A dispatch table of subcommands, each
 * in `commands/<verb>.ts`; results go to stdout, diagnostics to stderr; exit 0 ok,
 * 1 failure, 2 usage (and, as in OPA, 2 for any `eval` error).
 */
import { configTable } from "../config.js";
import { type Command, type PolicyIo, processPolicyIo } from "./cli-io.js";
import { benchCommand } from "./commands/bench.js";
import { buildCommand } from "./commands/build.js";
import { capabilitiesCommand } from "./commands/capabilities.js";
import { checkCommand } from "./commands/check.js";
import { completionCommand } from "./commands/completion.js";
import { depsCommand } from "./commands/deps.js";
import { evalCommand } from "./commands/eval.js";
import { execCommand } from "./commands/exec.js";
import { fmtCommand } from "./commands/fmt.js";
import { inspectCommand } from "./commands/inspect.js";
import { parseCommand } from "./commands/parse.js";
import { runCommand } from "./commands/run.js";
import { signCommand } from "./commands/sign.js";
import { testCommand } from "./commands/test.js";
import { versionCommand } from "./commands/version.js";

const implemented: Command[] = [
  evalCommand,
  execCommand,
  benchCommand,
  buildCommand,
  runCommand,
  inspectCommand,
  checkCommand,
  capabilitiesCommand,
  parseCommand,
  testCommand,
  versionCommand,
  fmtCommand,
  depsCommand,
  signCommand,
];

/** Every subcommand by name (help is added below, as it lists the others). */
const commands = new Map<string, Command>(implemented.map((c) => [c.name, c]));

function overview(): string {
  // `help` is in the table once it is registered below; each command is listed once.
  const names = [...commands.values()].sort((a, b) => a.name.localeCompare(b.name));
  const width = Math.max(...names.map((c) => c.name.length));
  const env = configTable.map(
    ([name, meaning, def]) => `  ${name.padEnd(24)} ${meaning} (default: ${def})`,
  );
  return [
    "rego: a Rego policy engine and OPA-compatible policy server",
    "",
    "Usage: rego <command> [flags] [args]",
    "",
    "Commands:",
    ...names.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    "",
    "Environment:",
    ...env,
    "",
    'Run "rego help <command>" for the flags of a command.',
    "",
  ].join("\n");
}

const helpCommand: Command = {
  name: "help",
  summary: "Show help for rego or one of its commands",
  usage: "Usage: rego help [command]\n",
  run: async (argv, io) => {
    const name = argv[0];
    if (name === undefined) {
      io.stdout.write(overview());
      return 0;
    }
    const command = name === "help" ? helpCommand : commands.get(name);
    if (!command) {
      io.stderr.write(`error: unknown command "${name}"\n`);
      return 2;
    }
    io.stdout.write(command.usage);
    return 0;
  },
};
commands.set("help", helpCommand);
commands.set(
  "completion",
  completionCommand(() => [...commands.keys()]),
);

/** Runs `rego` with `argv` (without the node and script names); resolves to the exit code. */
export async function main(argv: string[], io: PolicyIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h") {
    io.stdout.write(overview());
    return name === undefined ? 2 : 0;
  }
  const command = commands.get(name);
  if (!command) {
    io.stderr.write(`error: unknown command "${name}"\n\n${overview()}`);
    return 2;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    io.stdout.write(command.usage);
    return 0;
  }
  return command.run(rest, io);
}

if (isEntryPoint(import.meta.url)) {
  main(process.argv.slice(2), processPolicyIo()).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(
        `internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exitCode = 1;
    },
  );
}
