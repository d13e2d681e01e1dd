#!/usr/bin/env node
/**
 * The `quintet` binary. `up [names...]` starts components (all present ones by default),
 * `status` shows which answer their health check, `list` names what is registered.
 */
import { type CliIo, ConfigError, isEntryPoint, processIo, resolveLogFormat } from "@quintet/kit";
import { type Component, isPresent, registeredComponents, repoRoot } from "./components.js";
import { configTable, type LauncherConfig, loadConfig } from "./config.js";
import { Supervisor } from "./supervisor.js";

/** The launcher's io: kit's, plus where the repository is. */
export interface QuintetIo extends CliIo {
  /** Repository root holding packages/ (tests point it elsewhere). */
  readonly root?: string;
}

const usage = `usage: quintet <command>

commands:
  up [name...]   start components (default: every one that is built) and wait
  status         show which components answer their health check
  list           list registered components

environment:
${configTable.map(([name, meaning, def]) => `  ${name.padEnd(26)} ${meaning} (default ${def})`).join("\n")}
`;

/** The named components, or every present one; an unknown or absent name is an error. */
function select(all: Component[], names: string[], root: string): Component[] | string {
  if (names.length === 0) return all.filter((c) => isPresent(c, root));
  const chosen: Component[] = [];
  for (const name of names) {
    const component = all.find((c) => c.name === name);
    if (!component)
      return `unknown component "${name}"; known: ${all.map((c) => c.name).join(", ")}`;
    if (!isPresent(component, root))
      return `component "${name}" is not built (${component.script} is missing); run npm run build`;
    chosen.push(component);
  }
  // Pull in what the chosen ones wait for, so `up vectors` also starts models.
  for (const component of [...chosen]) {
    for (const dependency of component.after) {
      if (!chosen.some((c) => c.name === dependency)) {
        const needed = all.find((c) => c.name === dependency);
        if (needed) chosen.unshift(needed);
      }
    }
  }
  return chosen;
}

async function up(names: string[], config: LauncherConfig, io: QuintetIo, root: string) {
  const chosen = select(registeredComponents(config), names, root);
  if (typeof chosen === "string") {
    io.stderr.write(`quintet: ${chosen}\n`);
    return 2;
  }
  if (chosen.length === 0) {
    io.stderr.write("quintet: no component is built; run npm run build\n");
    return 1;
  }
  const supervisor = new Supervisor(chosen, {
    root,
    startTimeoutMs: config.startTimeoutMs,
    logFormat: resolveLogFormat(config.logFormat, io.stdout.isTTY),
    io: { line: (text) => io.stdout.write(`${text}\n`) },
    env: io.env,
  });
  return supervisor.run(io.signal);
}

async function status(config: LauncherConfig, io: QuintetIo, root: string) {
  let allUp = true;
  for (const component of registeredComponents(config)) {
    let state: string;
    if (!isPresent(component, root)) state = "not built";
    else if (!component.probe) state = "job (no health check)";
    else {
      const healthy = await component.probe(AbortSignal.timeout(3000));
      state = healthy ? "up" : "down";
      allUp &&= healthy;
    }
    io.stdout.write(`${component.name.padEnd(8)} ${state.padEnd(22)} ${component.url}\n`);
  }
  return allUp ? 0 : 1;
}

/** Runs one command line; resolves to the exit code. */
export async function main(argv: readonly string[], io: QuintetIo): Promise<number> {
  const [command, ...rest] = argv;
  const root = io.root ?? repoRoot;
  if (command === undefined || command === "help" || command === "--help" || command === "-h") {
    io.stdout.write(usage);
    return command === undefined ? 2 : 0;
  }
  let config: LauncherConfig;
  try {
    config = loadConfig(io.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr.write(`quintet: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
  switch (command) {
    case "up":
      return up(rest, config, io, root);
    case "status":
      return status(config, io, root);
    case "list":
      for (const c of registeredComponents(config)) {
        io.stdout.write(
          `${c.name.padEnd(8)} ${c.kind.padEnd(8)} ${isPresent(c, root) ? "built" : "not built"}\n`,
        );
      }
      return 0;
    default:
      io.stderr.write(`quintet: unknown command "${command}"\n${usage}`);
      return 2;
  }
}

if (isEntryPoint(import.meta.url)) {
  // A second Ctrl-C changes nothing: the launcher goes on stopping its children.
  process.exitCode = await main(process.argv.slice(2), processIo({ secondSignal: "ignored" }));
}
