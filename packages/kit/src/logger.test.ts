import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isLogRecord, readLogFormat, recordOf, renderText } from "./log-format.js";
import { createLogger, type LogDestination } from "./logger.js";

function capture(isTTY?: boolean): LogDestination & { lines(): string[] } {
  let text = "";
  return {
    isTTY,
    write(chunk: string) {
      text += chunk;
    },
    lines: () => text.split("\n").filter((l) => l !== ""),
  };
}

const iso = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe("createLogger", () => {
  it("writes JSON lines with time, level name, service and msg when the output is not a terminal", () => {
    const out = capture(false);
    const log = createLogger({ service: "policy", destination: out });
    log.info({ addr: "localhost:8181" }, "listening");
    log.warn("careful");
    const [first, second] = out.lines().map((l) => JSON.parse(l));
    assert.match(first.time, iso);
    assert.deepEqual(
      { level: first.level, service: first.service, msg: first.msg, addr: first.addr },
      { level: "info", service: "policy", msg: "listening", addr: "localhost:8181" },
    );
    assert.equal(second.level, "warn");
    assert.ok(isLogRecord(first) && isLogRecord(second));
    assert.equal("pid" in first || "hostname" in first, false);
  });

  it("renders lines for a person on a terminal, and JSON there too with format json", () => {
    const tty = capture(true);
    createLogger({ service: "notes", destination: tty }).error(
      { user: 7, note: "a b" },
      "login failed",
    );
    const [line] = tty.lines();
    assert.match(
      line ?? "",
      /^\d{4}-\d\d-\d\dT[\d:.]+Z ERROR notes: login failed user=7 note="a b"$/,
    );
    const forced = capture(true);
    createLogger({ service: "notes", destination: forced, format: "json" }).info("x");
    assert.equal(JSON.parse(forced.lines()[0] ?? "").msg, "x");
    const text = capture(false);
    createLogger({ service: "notes", destination: text, format: "text" }).info("y");
    assert.match(text.lines()[0] ?? "", / INFO {2}notes: y$/);
  });

  it("honours the level and hides redacted fields", () => {
    const out = capture(false);
    const log = createLogger({
      service: "llmsrv",
      level: "warn",
      destination: out,
      redact: ["apiKey"],
    });
    log.info("dropped");
    log.warn({ apiKey: "secret" }, "kept");
    const lines = out.lines();
    assert.equal(lines.length, 1);
    assert.equal(JSON.parse(lines[0] ?? "").apiKey, "[Redacted]");
  });

  it("prints an error's message inline and its stack below in text", () => {
    const out = capture(true);
    createLogger({ service: "greeter", destination: out }).error(
      { err: new Error("boom") },
      "failed",
    );
    const [line, ...stack] = out.lines();
    assert.match(line ?? "", /ERROR greeter: failed err=boom$/);
    assert.match(stack[0] ?? "", /^ {4}Error: boom/);
  });
});

describe("log format", () => {
  it("reads LOG_FORMAT json, text and auto, and names the variable for anything else", () => {
    const bad: string[] = [];
    assert.equal(readLogFormat({ LOG_FORMAT: "json" }, bad), "json");
    assert.equal(readLogFormat({ LOG_FORMAT: "TEXT" }, bad), "text");
    assert.equal(readLogFormat({ LOG_FORMAT: "auto" }, bad), undefined);
    assert.equal(readLogFormat({}, bad), undefined);
    assert.deepEqual(bad, []);
    readLogFormat({ LOG_FORMAT: "yaml" }, bad);
    assert.deepEqual(bad, ['LOG_FORMAT must be json, text or auto, got "yaml"']);
  });

  it("wraps a plain line into a record and renders it", () => {
    const record = recordOf("vectors", "loaded 68 rows", "info");
    assert.ok(isLogRecord(record));
    assert.match(renderText(record), / INFO {2}vectors: loaded 68 rows$/);
    assert.equal(isLogRecord({ level: "loud", time: "t", service: "s", msg: "m" }), false);
  });
});
