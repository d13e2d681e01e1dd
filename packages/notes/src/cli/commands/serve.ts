/**
 * `notes serve`: validates the configuration, opens storage, listens, prints
 * `listening on http://host:port` to stdout, and shuts down cleanly on SIGINT/SIGTERM.
 */
import { parseArgs } from "node:util";
import {
  type CliIo,
  type Command,
  createLogger as createServiceLogger,
  EXIT,
  type LogFormat,
  whenAborted,
} from "@quintet/kit";
import { loadConfig } from "../../config.js";
import { ConfigError, NotesError } from "../../errors.js";
import { startServer } from "../../server.js";
import { configHelp } from "../config-help.js";

const USAGE = "usage: notes serve [--help]\n\nConfiguration comes from the environment:\n";

/** Structured logs to stderr; secrets and credentials redacted. */
function createLogger(level: string, format: LogFormat | undefined, io: CliIo) {
  return createServiceLogger({
    service: "notes",
    level,
    format,
    destination: io.stderr,
    redact: [
      "req.headers.cookie",
      "req.headers.authorization",
      "password",
      "password1",
      "password2",
    ],
  });
}

export const serveCommand: Command = {
  name: "serve",
  summary: "run the notes web application (NOTES_ADDR, default 127.0.0.1:8080)",
  async run(argv, io) {
    // Listening starts now, so a stop asked for during start-up ends the server once it is up.
    const stop = io.signal;
    let help = false;
    try {
      help =
        parseArgs({ args: [...argv], options: { help: { type: "boolean", short: "h" } } }).values
          .help ?? false;
    } catch (error) {
      io.stderr.write(`notes serve: ${(error as Error).message}\n${USAGE}${configHelp()}`);
      return EXIT.usage;
    }
    if (help) {
      io.stdout.write(`${USAGE}${configHelp()}`);
      return EXIT.ok;
    }
    let config: ReturnType<typeof loadConfig>;
    try {
      config = loadConfig(io.env);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      io.stderr.write(`notes serve: ${error.message}\n`);
      return EXIT.failure;
    }
    const log = createLogger(config.logLevel, config.logFormat, io);
    if (config.sessionSecretGenerated) {
      log.warn(
        "SESSION_SECRET is not set: generated a random one for this run (development mode); sessions end when the server restarts",
      );
    }
    let server: Awaited<ReturnType<typeof startServer>>;
    try {
      server = await startServer(config, log);
    } catch (error) {
      const message =
        error instanceof NotesError || error instanceof Error ? error.message : String(error);
      io.stderr.write(`notes serve: cannot start: ${message}\n`);
      return EXIT.failure;
    }
    log.info({ storage: server.db.driver, url: server.url }, "notes started");
    io.stdout.write(`notes: listening on ${server.url}\n`);
    const signal = await whenAborted(stop);
    log.info({ signal }, "shutting down");
    await server.close();
    return EXIT.ok;
  },
};
