import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { addrProblem, type Command, createLogger, whenAborted } from "@quintet/kit";
import { configTable } from "../config.js";
import { configOrReport } from "../config-or-report.js";
import { GreeterServer } from "../server.js";

const usage = `usage: greeter serve [--addr host:port]

Environment:
${configTable.map(([name, meaning, def]) => `  ${name.padEnd(26)} ${meaning} (default ${def})`).join("\n")}`;

/** `greeter serve`: runs the server until SIGINT/SIGTERM, then shuts down gracefully. */
export const serveCommand: Command = {
  name: "serve",
  summary: "run the greeting server",
  async run(argv, io) {
    // Listening starts now, so a stop asked for during start-up ends the server once it is up.
    const stop = io.signal;
    let values: { addr?: string; help?: boolean };
    try {
      ({ values } = parseArgs({
        args: [...argv],
        options: { addr: { type: "string" }, help: { type: "boolean", short: "h" } },
      }));
    } catch (error) {
      io.stderr.write(`${(error as Error).message}\n${usage}\n`);
      return 2;
    }
    if (values.help) {
      io.stdout.write(`${usage}\n`);
      return 0;
    }
    if (values.addr !== undefined && addrProblem("--addr", values.addr)) {
      io.stderr.write(`${addrProblem("--addr", values.addr)}\n`);
      return 2;
    }
    const config = configOrReport(io);
    if (!config) return 1;
    const log = createLogger({
      service: "greeter",
      format: config.logFormat,
      destination: io.stdout,
    });
    const addr = values.addr ?? config.addr;
    const server = new GreeterServer({
      token: config.token,
      tls:
        config.tlsCert && config.tlsKey
          ? { cert: readFileSync(config.tlsCert), key: readFileSync(config.tlsKey) }
          : undefined,
    });
    let port: number;
    try {
      port = await server.start(addr);
    } catch (error) {
      io.stderr.write(`greeter: ${(error as Error).message}\n`);
      return 1;
    }
    const host = addr.slice(0, addr.lastIndexOf(":"));
    log.info(
      { addr: `${host}:${port}`, tls: Boolean(config.tlsCert), auth: Boolean(config.token) },
      `greeter listening on ${host}:${port}`,
    );
    await whenAborted(stop);
    log.info({ graceMs: config.shutdownGraceMs }, "shutting down, letting in-flight calls finish");
    const { forced } = await server.shutdown(config.shutdownGraceMs);
    log.info({ forced }, forced ? "stopped, cancelling calls past the grace period" : "stopped");
    return 0;
  },
};
