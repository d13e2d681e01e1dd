import assert from "node:assert/strict";
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { loadedModels, postJson, waitFor } from "./harness.js";

const MAIN = resolve(fileURLToPath(new URL(".", import.meta.url)), "../src/cli/main.js");

/** Spawns `llmsrv serve --ensure-demo` and resolves with the URL it prints. */
function spawnServe(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [MAIN, "serve", "--ensure-demo"], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolvePromise, reject) => {
    let out = "";
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m?.[1]) resolvePromise({ child, url: m[1] });
    });
    child.on("exit", (code) => reject(new Error(`serve exited with ${code}`)));
  });
}

/** Direct child processes of `pid` (the model runners of a server). */
function childrenOf(pid: number): number[] {
  try {
    return execFileSync("ps", ["-o", "pid=", "--ppid", String(pid)], { encoding: "utf8" })
      .split("\n")
      .map((l) => Number(l.trim()))
      .filter((n) => n > 0);
  } catch {
    return []; // ps exits 1 when there are none
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("SIGTERM while a runner tokenizes a huge prompt", { timeout: 120_000 }, () => {
  let dir: string;
  let child: ChildProcess | undefined;
  let url = "";

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "llmsrv-stop-"));
    ({ child, url } = await spawnServe({
      LLMSRV_HOST: "127.0.0.1:0",
      LLMSRV_MODELS: dir,
      LLMSRV_NUM_THREAD: "1",
      LLMSRV_LOG_LEVEL: "silent",
    }));
  });

  after(async () => {
    if (child && child.exitCode === null) child.kill("SIGKILL");
    await rm(dir, { recursive: true, force: true });
  });

  it("stops the server and its runners without waiting for the tokenization", async () => {
    const server = child;
    assert.ok(server?.pid);
    const options = { num_ctx: 65_536 };
    const preload = await postJson(`${url}/api/generate`, {
      model: "demo",
      prompt: "x",
      stream: false,
      options: { ...options, num_predict: 1 },
    });
    assert.equal(preload.status, 200, preload.text);
    // One run of 300,000 letters: llama.cpp needs several seconds for it on the demo model.
    const huge = postJson(`${url}/api/generate`, {
      model: "demo",
      prompt: "a".repeat(300_000),
      raw: true,
      stream: false,
      options,
    }).then(
      (r) => r.status,
      (e: unknown) => e,
    );
    await waitFor(
      async () => (await loadedModels(url))[0]?.active === 1,
      30_000,
      "the huge generation to hold its slot",
    );
    const runners = childrenOf(server.pid);
    assert.ok(runners.length > 0, "the model runs in a child process");
    const exited = new Promise<number | null>((r) => server.once("exit", (code) => r(code)));
    server.kill("SIGTERM");
    assert.equal(await exited, 0);
    const answer = await huge;
    assert.ok(
      answer instanceof Error || answer === 500,
      `the huge request was cut off, not answered (got ${String(answer)})`,
    );
    await waitFor(async () => runners.every((p) => !isAlive(p)), 10_000, "the runners to exit");
  });
});
