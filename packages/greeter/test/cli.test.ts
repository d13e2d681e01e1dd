import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { main } from "../src/cli.js";
import { clockAt, type RunningGreeter, startGreeter } from "./test-server.js";

/** Runs the CLI in-process, capturing what it prints. */
async function runCli(
  argv: string[],
  env: NodeJS.ProcessEnv = {},
  signal = new AbortController().signal,
) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, {
    stdout: {
      write: (text: string) => {
        stdout += text;
      },
    },
    stderr: {
      write: (text: string) => {
        stderr += text;
      },
    },
    env,
    signal,
  });
  return { code, stdout, stderr };
}

describe("greeter CLI", () => {
  let running: RunningGreeter;
  before(async () => {
    running = await startGreeter({ clock: clockAt(17, 30), token: "t0k" });
  });
  after(() => running.stop());

  it("prints the greeting for `greet <name> --addr`", async () => {
    const result = await runCli(["greet", "Ann", "--addr", running.addr], { GREETER_TOKEN: "t0k" });
    assert.deepEqual(result, { code: 0, stdout: "Hello, Ann, Good Evening !!!\n", stderr: "" });
  });

  it("takes the address from GREETER_ADDR", async () => {
    const result = await runCli(["greet", "Bo"], {
      GREETER_ADDR: running.addr,
      GREETER_TOKEN: "t0k",
    });
    assert.equal(result.stdout, "Hello, Bo, Good Evening !!!\n");
  });

  it("prints the status name and message and exits 1 on a failed call", async () => {
    const blank = await runCli(["greet", " ", "--addr", running.addr], { GREETER_TOKEN: "t0k" });
    assert.equal(blank.code, 1);
    assert.equal(blank.stderr, "INVALID_ARGUMENT: name must not be blank\n");
    const noToken = await runCli(["greet", "Ann", "--addr", running.addr]);
    assert.equal(noToken.code, 1);
    assert.match(noToken.stderr, /^UNAUTHENTICATED: /);
  });

  it("exits 2 with usage for bad arguments", async () => {
    for (const argv of [
      ["greet"],
      ["greet", "a", "b"],
      ["greet", "Ann", "--deadline", "soon"],
      ["greet", "Ann", "--addr", "no-port"],
      ["greet", "Ann", "--bogus"],
      ["frobnicate"],
    ]) {
      const result = await runCli(argv);
      assert.equal(result.code, 2, `argv ${argv.join(" ")}`);
      assert.notEqual(result.stderr, "");
    }
  });

  it("stops with a message naming the variable when configuration is invalid", async () => {
    const result = await runCli(["greet", "Ann"], { GREETER_ADDR: "bad" });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /GREETER_ADDR must be host:port/);
  });

  it("refuses to serve with an unknown TZ, naming the variable", async () => {
    // Already aborted: a server that did start would stop at once instead of running on.
    const result = await runCli(
      ["serve", "--addr", "127.0.0.1:0"],
      { TZ: "Mars/Olympus" },
      AbortSignal.abort(),
    );
    assert.equal(result.code, 1);
    assert.match(result.stderr, /TZ is not a known time zone: Mars\/Olympus/);
  });

  it("fails to serve on a port that is taken, naming the address", async () => {
    const result = await runCli(["serve", "--addr", running.addr]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, new RegExp(`cannot listen on ${running.addr}`));
  });
});
