// `llmsrv serve`: starts the server from LLMSRV_* settings; `--help` prints their table.
import { parseArgs } from "node:util";
import { whenAborted } from "@quintet/kit";
import { loadConfig } from "../../config.js";
import { CONFIG_VARIABLES } from "../../config-variables.js";
import { ConfigError, messageOf } from "../../errors.js";
import { createLogger } from "../../logger.js";
import { startServer } from "../../server.js";
import { EXIT, type ModelsCommand } from "../io.js";

function help(): string {
  const rows = CONFIG_VARIABLES.map(
    (v) =>
      `  ${v.name.padEnd(26)}${v.meaning} (default: ${v.default}${v.ollama ? `; when unset, ${v.ollama} is read` : ""})`,
  );
  return ["Usage: llmsrv serve [--ensure-demo]", "", "Environment variables:", ...rows, ""].join(
    "\n",
  );
}

/** `llmsrv serve`: starts the server; prints `listening on http://host:port` once ready. */
export const serveCommand: ModelsCommand = {
  name: "serve",
  summary: "Start the model server (--ensure-demo registers demo:latest first)",
  async run(argv, io) {
    let values: { "ensure-demo"?: boolean; help?: boolean };
    try {
      ({ values } = parseArgs({
        args: [...argv],
        options: { "ensure-demo": { type: "boolean" }, help: { type: "boolean", short: "h" } },
      }));
    } catch (e) {
      io.stderr.write(`${messageOf(e)}\n${help()}`);
      return EXIT.usage;
    }
    if (values.help) {
      io.stdout.write(help());
      return EXIT.ok;
    }
    let config: ReturnType<typeof loadConfig>;
    try {
      config = loadConfig(io.env);
    } catch (e) {
      io.stderr.write(`llmsrv: ${e instanceof ConfigError ? e.message : messageOf(e)}\n`);
      return EXIT.failure;
    }
    const log = createLogger(config.logLevel, config.logFormat);
    for (const notice of config.envNotices) log.info(notice);
    try {
      const server = await startServer(config, log, { ensureDemo: values["ensure-demo"] ?? false });
      io.stdout.write(`llmsrv listening on ${server.url}\n`);
      await whenAborted(io.signal);
      await server.close();
      return EXIT.ok;
    } catch (e) {
      io.stderr.write(`llmsrv: ${messageOf(e)}\n`);
      return EXIT.failure;
    }
  },
};
