import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { Component } from "../src/components.js";
import { httpProbe } from "../src/health.js";
import { Supervisor } from "../src/supervisor.js";
import { freePort } from "./free-port.js";

/** A directory of tiny child programs standing in for components the test makes fail. */
function scripts(): string {
  const root = mkdtempSync(join(tmpdir(), "quintet-sup-"));
  writeFileSync(
    join(root, "http-service.mjs"),
    `import { createServer } from "node:http";
const server = createServer((req, res) => res.end("ok"));
server.listen(Number(process.env.PORT), "127.0.0.1", () => console.log("serving"));
process.on("SIGTERM", () => { console.log("got SIGTERM"); server.close(() => process.exit(0)); });`,
  );
  writeFileSync(join(root, "job-ok.mjs"), `console.log("job ran with", process.env.MARK);`);
  writeFileSync(join(root, "job-fail.mjs"), `console.error("cannot load"); process.exit(3);`);
  writeFileSync(join(root, "crash.mjs"), `console.error("boom"); process.exit(4);`);
  return root;
}

function service(name: string, port: number): Component {
  return {
    name,
    kind: "service",
    script: "http-service.mjs",
    args: [],
    env: { PORT: String(port) },
    url: `http://127.0.0.1:${port}`,
    probe: httpProbe(`http://127.0.0.1:${port}/`),
    listen: `127.0.0.1:${port}`,
    after: [],
  };
}

function job(name: string, script: string, after: string[]): Component {
  return { name, kind: "job", script, args: [], env: { MARK: "m1" }, url: "-", after };
}

/** Runs a supervisor, stops it once `until` matches a printed line, returns exit code and log. */
async function supervise(components: Component[], root: string, until: RegExp) {
  const lines: string[] = [];
  const stop = new AbortController();
  const supervisor = new Supervisor(components, {
    root,
    startTimeoutMs: 20_000,
    io: {
      line: (text) => {
        lines.push(text);
        if (until.test(text)) stop.abort("SIGTERM");
      },
    },
  });
  const code = await supervisor.run(stop.signal);
  return { code, lines };
}

describe("Supervisor", () => {
  it("starts services, prints name/URL/pid, runs jobs after their dependency, forwards SIGTERM", async () => {
    const root = scripts();
    const port = await freePort();
    const { code, lines } = await supervise(
      [service("web", port), job("loader", "job-ok.mjs", ["web"])],
      root,
      /loader finished/,
    );
    assert.equal(code, 0);
    assert.ok(
      lines.some((l) => new RegExp(`^quintet: web +http://127.0.0.1:${port} +pid \\d+$`).test(l)),
    );
    assert.ok(lines.includes("loader | job ran with m1"), lines.join("\n"));
    assert.ok(lines.includes("web    | got SIGTERM"), lines.join("\n"));
    const serving = lines.indexOf("web    | serving");
    const ran = lines.indexOf("loader | job ran with m1");
    assert.ok(serving >= 0 && ran > serving, "the job ran after the service was up");
  });

  it("refuses to start when a port is taken, naming the component and port", async () => {
    const root = scripts();
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const { port } = blocker.address() as { port: number };
    try {
      const { code, lines } = await supervise([service("web", port)], root, /never/);
      assert.equal(code, 1);
      assert.ok(
        lines.includes(`quintet: web failed to start: port ${port} on 127.0.0.1 is already in use`),
        lines.join("\n"),
      );
    } finally {
      blocker.close();
    }
  });

  it("stops everything and exits 1 when a job fails", async () => {
    const root = scripts();
    const port = await freePort();
    const { code, lines } = await supervise(
      [service("web", port), job("loader", "job-fail.mjs", ["web"])],
      root,
      /never/,
    );
    assert.equal(code, 1);
    assert.ok(lines.includes("loader | cannot load"));
    assert.ok(
      lines.some((l) => l.startsWith("quintet: loader failed to start: exited with code 3")),
    );
    assert.ok(lines.includes("web    | got SIGTERM"), "the healthy service was stopped");
  });

  it("reports a service that exits before answering its health check", async () => {
    const root = scripts();
    const crash: Component = { ...service("web", await freePort()), script: "crash.mjs" };
    const { code, lines } = await supervise([crash], root, /never/);
    assert.equal(code, 1);
    assert.ok(lines.includes("web | boom"));
    assert.ok(
      lines.some((l) => /^quintet: web failed to start: /.test(l)),
      lines.join("\n"),
    );
  });
});
