/**
 * The one log format across the services (@quintet/kit's logger), checked through their real
 * commands: LOG_FORMAT is validated by each at start-up, and the records they write carry the
 * same fields and level names.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { isLogRecord, type LogRecord } from "@quintet/kit";
import { repoRoot } from "./package-commands.js";

const work = mkdtempSync(join(tmpdir(), "quintet-logs-"));
const env = {
  ...process.env,
  LLMSRV_HOST: "127.0.0.1:0",
  LLMSRV_MODELS: join(work, "models"),
  NOTES_ADDR: "127.0.0.1:0",
  NOTES_DATA_DIR: join(work, "notes"),
};
const bin = (pkg: string, command: string) =>
  join(repoRoot, "packages", pkg, "bin", `${command}.js`);
const examples = join(repoRoot, "packages/policy/examples");

const commands: [string, string[]][] = [
  [bin("greeter", "greeter"), ["serve", "--addr", "127.0.0.1:0"]],
  [bin("policy", "rego"), ["run", "--server", "--addr", "127.0.0.1:0", examples]],
  [bin("models", "llmsrv"), ["serve"]],
  [bin("notes", "notes"), ["serve"]],
  [bin("quintet", "quintet"), ["status"]],
];

/** Starts a service and resolves with its first log line (stdout or stderr), then stops it. */
async function firstLogLine(script: string, args: string[], format: string): Promise<string> {
  const child: ChildProcess = spawn(process.execPath, [script, ...args], {
    env: { ...env, LOG_FORMAT: format },
  });
  try {
    return await new Promise<string>((resolve, reject) => {
      let text = "";
      const onData = (chunk: Buffer) => {
        text += chunk;
        const line = text.split("\n").find((l) => / (INFO|WARN) |"level"/.test(l));
        if (line) resolve(line);
      };
      child.stdout?.on("data", onData);
      child.stderr?.on("data", onData);
      child.once("exit", (code) => reject(new Error(`exited ${code} before logging:\n${text}`)));
    });
  } finally {
    child.kill("SIGTERM");
  }
}

describe("one log format across the services", () => {
  after(() => rmSync(work, { recursive: true, force: true }));

  for (const [script, args] of commands) {
    it(`${args[0]} of ${script.split("/").at(-1)} stops at start-up on a bad LOG_FORMAT, naming it`, () => {
      const result = spawnSync(process.execPath, [script, ...args], {
        env: { ...env, LOG_FORMAT: "yaml" },
        encoding: "utf8",
        timeout: 60_000,
      });
      assert.notEqual(result.status, 0);
      assert.match(result.stderr, /LOG_FORMAT must be json, text or auto, got "yaml"/);
    });
  }

  it("greeter and policy write the same record fields as JSON, and text lines on request", async () => {
    const records: LogRecord[] = [];
    for (const [script, args] of commands.slice(0, 2)) {
      const line = await firstLogLine(script, args, "json");
      const record = JSON.parse(line);
      assert.ok(isLogRecord(record), line);
      records.push(record);
      const text = await firstLogLine(script, args, "text");
      assert.match(text, /^\d{4}-\d\d-\d\dT[\d:.]+Z INFO {2}(greeter|policy): \S/);
    }
    assert.deepEqual(
      records.map((r) => [r.service, r.level]),
      [
        ["greeter", "info"],
        ["policy", "info"],
      ],
    );
  });
});
