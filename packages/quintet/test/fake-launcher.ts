/**
 * A launcher for tests: runs the Supervisor over small child scripts, like `quintet up` does
 * over the real components, and can die of an uncaught exception once everything is up.
 * Usage: node fake-launcher.js <root> <wait|throw> <orphanGraceMs> <name:script:port>...
 */
import type { Component } from "../src/components.js";
import { httpProbe } from "../src/health.js";
import { Supervisor } from "../src/supervisor.js";

const [root = ".", mode = "wait", grace = "10000", ...specs] = process.argv.slice(2);

const components: Component[] = specs.map((spec) => {
  const [name = "", script = "", port = ""] = spec.split(":");
  return {
    name,
    kind: "service",
    script,
    args: [],
    env: { PORT: port },
    url: `http://127.0.0.1:${port}`,
    probe: httpProbe(`http://127.0.0.1:${port}/`),
    listen: `127.0.0.1:${port}`,
    after: [],
  };
});

const supervisor = new Supervisor(components, {
  root,
  startTimeoutMs: 20_000,
  orphanGraceMs: Number(grace),
  io: {
    line: (text) => {
      process.stdout.write(`${text}\n`);
      if (mode === "throw" && /all components up/.test(text)) {
        setImmediate(() => {
          throw new Error("launcher bug");
        });
      }
    },
  },
});
process.exitCode = await supervisor.run(new AbortController().signal);
