import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { main } from "../src/cli.js";
import { freePort } from "./free-port.js";

const cli = fileURLToPath(new URL("../src/cli.js", import.meta.url));

async function runInProcess(argv: string[], env: NodeJS.ProcessEnv = {}) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, {
    stdout: {
      write: (t: string) => {
        stdout += t;
      },
    },
    stderr: {
      write: (t: string) => {
        stderr += t;
      },
    },
    env,
    signal: new AbortController().signal,
  });
  return { code, stdout, stderr };
}

describe("quintet CLI", () => {
  it("rejects an unknown component with exit 2", async () => {
    const result = await runInProcess(["up", "frobnicator"]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /unknown component "frobnicator"; known: greeter, policy/);
  });

  it("stops with a message naming the variable when configuration is invalid", async () => {
    const result = await runInProcess(["status"], { GREETER_ADDR: "nowhere" });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /GREETER_ADDR must be host:port/);
  });

  it("lists the registered components", async () => {
    const result = await runInProcess(["list"]);
    assert.equal(result.code, 0);
    for (const name of ["greeter", "policy", "models", "notes", "vectors"]) {
      assert.match(result.stdout, new RegExp(`^${name} `, "m"));
    }
  });

  it("runs the real greeter with `up greeter`, shows it in `status`, and stops on SIGTERM", async () => {
    const addr = `127.0.0.1:${await freePort()}`;
    const env = { ...process.env, GREETER_ADDR: addr };
    const child = spawn(process.execPath, [cli, "up", "greeter"], { env });
    let output = "";
    const upLine = new Promise<void>((resolve) =>
      child.stdout.on("data", (chunk: Buffer) => {
        output += chunk;
        if (/all components up/.test(output)) resolve();
      }),
    );
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    await upLine;
    // stdout is a pipe, so every line is a JSON record.
    const records = () =>
      output
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line));
    const up = records().find((r) => r.service === "quintet" && r.msg === "greeter up");
    assert.equal(up?.url, `grpc://${addr}`);
    assert.equal(typeof up?.pid, "number");
    assert.ok(
      records().some((r) => r.service === "greeter" && /^greeter listening on/.test(r.msg)),
    );
    const status = await runInProcess(["status"], { GREETER_ADDR: addr });
    assert.match(status.stdout, /^greeter +up +grpc:/m);
    child.kill("SIGTERM");
    assert.equal(await exited, 0);
    assert.ok(
      records().some((r) => r.service === "greeter" && r.msg === "stopped"),
      output,
    );
  });
});
