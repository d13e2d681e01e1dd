// Tests of request logging: expected 5xx errors as one line without a stack, the access log.
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { pino } from "pino";
import { LlmsrvError } from "../src/errors.js";
import { toHttpError } from "../src/http/error-response.js";
import { logFailure } from "../src/http/request-log.js";
import { type RunningServer, startServer } from "../src/server.js";
import { testConfig } from "./harness.js";

/** A pino logger whose JSON lines land in `lines`. */
function memoryLogger(level = "debug") {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split("\n")) if (l.trim()) lines.push(JSON.parse(l));
      done();
    },
  });
  return { log: pino({ level }, sink), lines };
}

describe("failure log lines", () => {
  it("logs a full queue as one warning without a stack", () => {
    const { log, lines } = memoryLogger();
    const e = new LlmsrvError(
      "server_busy",
      "server busy, please try again.  maximum pending requests exceeded",
    );
    for (let i = 0; i < 3; i++) logFailure(log, e, toHttpError(e), "/api/generate");
    assert.equal(lines.length, 3);
    for (const l of lines) {
      assert.equal(l.level, 40);
      assert.equal(l.status, 503);
      assert.match(String(l.msg), /maximum pending requests/);
      assert.equal(JSON.stringify(l).includes("stack"), false);
    }
  });

  it("keeps the stack for an unexpected error, and logs nothing for a 4xx", () => {
    const { log, lines } = memoryLogger();
    const bug = new TypeError("x is undefined");
    logFailure(log, bug, toHttpError(bug), "/api/chat");
    const bad = new LlmsrvError("bad_request", "nope");
    logFailure(log, bad, toHttpError(bad), "/api/chat");
    assert.equal(lines.length, 1);
    assert.equal(lines[0]?.level, 50);
    assert.match(JSON.stringify(lines[0]), /"stack":"TypeError: x is undefined/);
  });
});

/** The first line matching, once the server has written it (on the response's close). */
async function lineWhen(
  lines: Array<Record<string, unknown>>,
  match: (l: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>> {
  for (;;) {
    const found = lines.find(match);
    if (found) return found;
    await sleep(10);
  }
}

describe("access log (LLMSRV_ACCESS_LOG)", () => {
  const dirs: string[] = [];
  const servers: RunningServer[] = [];
  const logs: Array<ReturnType<typeof memoryLogger>> = [];
  before(async () => {
    for (const env of [{ LLMSRV_ACCESS_LOG: "1" }, { LLMSRV_ACCESS_LOG: "0" }]) {
      const dir = await mkdtemp(join(tmpdir(), "llmsrv-log-"));
      dirs.push(dir);
      const memory = memoryLogger("debug");
      logs.push(memory);
      servers.push(
        await startServer(testConfig(dir, { LLMSRV_HOST: "127.0.0.1:0", ...env }), memory.log),
      );
    }
  });
  after(async () => {
    for (const s of servers) await s.close();
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it("logs method, path, status, duration and bytes of each request when on", async () => {
    const [on] = servers as [RunningServer];
    const res = await fetch(`http://127.0.0.1:${on.port}/api/tags`);
    const body = await res.text();
    await fetch(`http://127.0.0.1:${on.port}/no/such/path`).then((r) => r.text());
    const lines = logs[0]?.lines ?? [];
    const tags = await lineWhen(lines, (l) => l.msg === "request" && l.path === "/api/tags");
    assert.equal(tags.method, "GET");
    assert.equal(tags.status, 200);
    assert.equal(tags.level, 30);
    assert.ok(typeof tags.ms === "number" && tags.ms >= 0);
    assert.ok((tags.bytes as number) > body.length, "body and headers");
    const missing = await lineWhen(lines, (l) => l.msg === "request" && l.path === "/no/such/path");
    assert.equal(missing.status, 404);
  });

  it("logs requests only at debug level by default", async () => {
    const [, off] = servers as [RunningServer, RunningServer];
    await fetch(`http://127.0.0.1:${off.port}/api/tags`).then((r) => r.text());
    const line = await lineWhen(logs[1]?.lines ?? [], (l) => l.msg === "request");
    assert.equal(line.level, 20);
  });
});
