import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import OpenAI from "openai";

const MAIN = resolve(fileURLToPath(new URL(".", import.meta.url)), "../src/cli/main.js");

/** Spawns `llmsrv serve --ensure-demo` and resolves with the URL it prints. */
function spawnServe(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string; stderr: () => string }> {
  const child = spawn(process.execPath, [MAIN, "serve", "--ensure-demo"], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolvePromise, reject) => {
    let out = "";
    let err = "";
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m?.[1]) resolvePromise({ child, url: m[1], stderr: () => err });
    });
    child.stderr?.on("data", (d: Buffer) => {
      err += d.toString();
    });
    child.on("exit", (code) => reject(new Error(`serve exited with ${code}: ${err}`)));
  });
}

describe("llmsrv serve as a child process (the vector store's path)", { timeout: 180_000 }, () => {
  let dir: string;
  let child: ChildProcess | undefined;
  let url = "";
  let serverLog: () => string = () => "";

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "llmsrv-cli-"));
    // Ollama's variable, as a machine set up for Ollama has it (LLMSRV_HOST blank = unset).
    const started = await spawnServe({
      LLMSRV_HOST: "",
      OLLAMA_HOST: "127.0.0.1:0",
      LLMSRV_MODELS: dir,
      LLMSRV_NUM_THREAD: "1",
      LLMSRV_LOG_LEVEL: "info",
    });
    child = started.child;
    url = started.url;
    serverLog = started.stderr;
  });

  it("listens where OLLAMA_HOST says, logging that it read it; the CLI follows OLLAMA_HOST", async () => {
    assert.match(serverLog(), /using OLLAMA_HOST=127\.0\.0\.1:0 \(LLMSRV_HOST is unset\)/);
    const ls = spawn(process.execPath, [MAIN, "ls"], {
      env: { ...process.env, LLMSRV_HOST: "", OLLAMA_HOST: new URL(url).host },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    ls.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
    });
    ls.stderr?.on("data", (d: Buffer) => {
      err += d.toString();
    });
    const code = await new Promise((r) => ls.on("exit", r));
    assert.equal(code, 0, err);
    assert.match(out, /^demo:latest\s/m);
    assert.equal(err, "", "the CLI prints nothing about the fallback, as ollama does");
    const bad = spawn(process.execPath, [MAIN, "ls"], {
      env: { ...process.env, LLMSRV_HOST: "", OLLAMA_HOST: "127.0.0.1:99999" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let badErr = "";
    bad.stderr?.on("data", (d: Buffer) => {
      badErr += d.toString();
    });
    assert.equal(await new Promise((r) => bad.on("exit", r)), 1);
    assert.match(badErr, /OLLAMA_HOST: expected .*"127\.0\.0\.1:99999"/);
  });

  after(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child?.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  });

  it("prints a real ephemeral port and answers the health check", async () => {
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.notEqual(new URL(url).port, "0");
    const res = await fetch(`${url}/`);
    assert.equal(res.status, 200);
    assert.equal(await res.text(), "Ollama is running");
  });

  it("returns a 2048-dimension embedding for demo:latest through the OpenAI client", async () => {
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: "dummy" });
    const res = await client.embeddings.create({
      model: "demo:latest",
      input: "a note about vectors",
    });
    assert.equal(res.data.length, 1);
    assert.equal(res.data[0]?.embedding.length, 2048);
    assert.ok(res.data[0]?.embedding.every((x) => Number.isFinite(x)));
  });

  it("embeds an array input in order, one vector per input, deterministically", async () => {
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: "dummy" });
    const a = await client.embeddings.create({ model: "demo:latest", input: ["first", "second"] });
    const b = await client.embeddings.create({ model: "demo:latest", input: "second" });
    assert.equal(a.data.length, 2);
    assert.deepEqual(
      a.data.map((d) => d.index),
      [0, 1],
    );
    const second = a.data[1]?.embedding ?? [];
    const again = b.data[0]?.embedding ?? [];
    assert.ok(second.every((x, i) => Math.abs(x - (again[i] ?? Number.NaN)) < 1e-5));
    assert.notDeepEqual(a.data[0]?.embedding, second);
  });
});
