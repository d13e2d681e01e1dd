import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { isLogRecord, type LogFormat, type LogRecord } from "@quintet/kit";
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
  // A component logging a record of its own, in the format it was asked for.
  writeFileSync(
    join(root, "job-record.mjs"),
    `console.log(JSON.stringify({ level: "warn", time: "2026-01-02T03:04:05.000Z", service: "loader", format: process.env.LOG_FORMAT, msg: "low disk" }));`,
  );
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

/**
 * Runs a supervisor, stops it once `until` matches a printed line, returns the exit code,
 * the printed lines and, in JSON, the records they hold.
 */
async function supervise(
  components: Component[],
  root: string,
  until: RegExp,
  logFormat: LogFormat = "json",
) {
  const lines: string[] = [];
  const stop = new AbortController();
  const supervisor = new Supervisor(components, {
    root,
    startTimeoutMs: 20_000,
    logFormat,
    io: {
      line: (text) => {
        lines.push(text);
        if (until.test(text)) stop.abort("SIGTERM");
      },
    },
  });
  const code = await supervisor.run(stop.signal);
  const records: LogRecord[] = logFormat === "json" ? lines.map((l) => JSON.parse(l)) : [];
  return { code, lines, records };
}

/** Index of the first record of `service` whose message matches, or -1. */
function find(records: LogRecord[], service: string, msg: string | RegExp): number {
  return records.findIndex(
    (r) => r.service === service && (typeof msg === "string" ? r.msg === msg : msg.test(r.msg)),
  );
}

describe("Supervisor", () => {
  it("starts services, logs name/URL/pid, runs jobs after their dependency, forwards SIGTERM", async () => {
    const root = scripts();
    const port = await freePort();
    const { code, lines, records } = await supervise(
      [service("web", port), job("loader", "job-ok.mjs", ["web"])],
      root,
      /loader finished/,
    );
    assert.equal(code, 0);
    assert.ok(records.every(isLogRecord), lines.join("\n"));
    const up = records[find(records, "quintet", "web up")];
    assert.equal(up?.url, `http://127.0.0.1:${port}`);
    assert.equal(typeof up?.pid, "number");
    assert.ok(find(records, "loader", "job ran with m1") >= 0, lines.join("\n"));
    assert.ok(find(records, "web", "got SIGTERM") >= 0, lines.join("\n"));
    const serving = find(records, "web", "serving");
    const ran = find(records, "loader", "job ran with m1");
    assert.ok(serving >= 0 && ran > serving, "the job ran after the service was up");
  });

  it("asks children for JSON and passes their records on; renders them for a person in text", async () => {
    const root = scripts();
    const port = await freePort();
    const components = [service("web", port), job("loader", "job-record.mjs", ["web"])];
    const json = await supervise(components, root, /loader finished/);
    const record = json.records[find(json.records, "loader", "low disk")];
    assert.deepEqual(record, {
      level: "warn",
      time: "2026-01-02T03:04:05.000Z",
      service: "loader",
      format: "json",
      msg: "low disk",
    });
    const text = await supervise(components, root, /loader finished/, "text");
    assert.ok(text.lines.includes("2026-01-02T03:04:05.000Z WARN  loader: low disk format=json"));
    assert.ok(
      text.lines.some((l) =>
        new RegExp(`Z INFO  quintet: web up url=http://127.0.0.1:${port} pid=\\d+$`).test(l),
      ),
      text.lines.join("\n"),
    );
    assert.ok(text.lines.some((l) => /Z INFO {2}web: serving$/.test(l)));
  });

  it("refuses to start when a port is taken, naming the component and port", async () => {
    const root = scripts();
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const { port } = blocker.address() as { port: number };
    try {
      const { code, lines, records } = await supervise([service("web", port)], root, /never/);
      assert.equal(code, 1);
      const failed = find(
        records,
        "quintet",
        `web failed to start: port ${port} on 127.0.0.1 is already in use`,
      );
      assert.equal(records[failed]?.level, "error", lines.join("\n"));
    } finally {
      blocker.close();
    }
  });

  it("stops everything and exits 1 when a job fails", async () => {
    const root = scripts();
    const port = await freePort();
    const { code, records } = await supervise(
      [service("web", port), job("loader", "job-fail.mjs", ["web"])],
      root,
      /never/,
    );
    assert.equal(code, 1);
    assert.ok(find(records, "loader", "cannot load") >= 0);
    assert.ok(find(records, "quintet", /^loader failed to start: exited with code 3/) >= 0);
    assert.ok(find(records, "web", "got SIGTERM") >= 0, "the healthy service was stopped");
  });

  it("reports a service that exits before answering its health check", async () => {
    const root = scripts();
    const crash: Component = { ...service("web", await freePort()), script: "crash.mjs" };
    const { code, lines, records } = await supervise([crash], root, /never/);
    assert.equal(code, 1);
    assert.ok(find(records, "web", "boom") >= 0);
    assert.ok(find(records, "quintet", /^web failed to start: /) >= 0, lines.join("\n"));
  });
});
