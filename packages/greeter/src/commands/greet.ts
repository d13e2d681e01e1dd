import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { addrProblem, type Command } from "@quintet/kit";
import { GreetCallError, GreeterClient } from "../client.js";
import { configOrReport } from "../config-or-report.js";

const usage = "usage: greeter greet <name> [--addr host:port] [--deadline <ms>]";

/** `greeter greet <name>`: prints the server's greeting, or the status name and message. */
export const greetCommand: Command = {
  name: "greet",
  summary: "call the server and print the greeting",
  async run(argv, io) {
    let parsed: ReturnType<typeof parseGreetArgs>;
    try {
      parsed = parseGreetArgs(argv);
    } catch (error) {
      io.stderr.write(`${(error as Error).message}\n${usage}\n`);
      return 2;
    }
    const config = configOrReport(io);
    if (!config) return 1;
    const client = new GreeterClient(parsed.addr ?? config.addr, {
      token: config.token,
      tlsCa: config.tlsCa ? readFileSync(config.tlsCa) : undefined,
    });
    try {
      const greeting = await client.greet(parsed.name, { deadlineMs: parsed.deadlineMs });
      io.stdout.write(`${greeting.message}\n`);
      return 0;
    } catch (error) {
      if (error instanceof GreetCallError) {
        io.stderr.write(`${error.statusName}: ${error.details}\n`);
        return 1;
      }
      throw error;
    } finally {
      client.close();
    }
  },
};

function parseGreetArgs(argv: readonly string[]): {
  name: string;
  addr?: string;
  deadlineMs?: number;
} {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: { addr: { type: "string" }, deadline: { type: "string" } },
  });
  if (positionals.length !== 1) {
    throw new Error(`expected exactly one name, got ${positionals.length}`);
  }
  if (values.addr !== undefined) {
    const problem = addrProblem("--addr", values.addr);
    if (problem) throw new Error(problem);
  }
  let deadlineMs: number | undefined;
  if (values.deadline !== undefined) {
    if (!/^\d+$/.test(values.deadline)) {
      throw new Error(
        `--deadline must be a whole number of milliseconds, got "${values.deadline}"`,
      );
    }
    deadlineMs = Number(values.deadline);
  }
  return { name: positionals[0] as string, addr: values.addr, deadlineMs };
}
