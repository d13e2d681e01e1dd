import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { writeDemoModel } from "../src/demo/demo-model.js";
import { LlmsrvError } from "../src/errors.js";
import { ProcessRuntime } from "../src/runtime/process-runtime.js";
import { postJson, startTestServer, type TestServer, waitFor } from "./harness.js";

/** A generation that runs for many seconds unless stopped. */
const LONG = { num_ctx: 4096, num_predict: 4000, seed: 1 };

/** 300,000 characters in three space-free runs: about half a second of tokenizing for demo. */
const HUGE_PROMPT = `${"a".repeat(99_999)} `.repeat(3);
/** A window large enough that HUGE_PROMPT is really tokenized before it is refused. */
const HUGE_CTX = 65_536;

function runnerPid(server: TestServer): number | undefined {
  return server.deps.scheduler.status()[0]?.runnerPid;
}

/** Reads a streamed NDJSON response to its end. */
async function ndjsonLines(res: Response): Promise<Array<Record<string, unknown>>> {
  const text = await res.text();
  return text
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe("a model runner process that dies", { timeout: 120_000 }, () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.stop());

  it("fails the streamed generation with an error line; the server answers and reloads the model", async () => {
    const res = await fetch(`${server.url}/api/generate`, {
      method: "POST",
      body: JSON.stringify({ model: "demo", prompt: "x", options: LONG }),
    });
    assert.equal(res.status, 200);
    const reader = res.body?.getReader();
    assert.ok(reader);
    const first = await reader.read();
    assert.equal(first.done, false, "a first chunk arrives");
    const pid = runnerPid(server);
    assert.ok(pid, "the model runs in a process of its own");
    assert.notEqual(pid, process.pid);
    process.kill(pid, "SIGKILL");
    let rest = "";
    const decoder = new TextDecoder();
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      rest += decoder.decode(r.value, { stream: true });
    }
    const last = JSON.parse(rest.trim().split("\n").at(-1) ?? "{}") as { error?: string };
    assert.match(last.error ?? "", /^llama runner process has terminated: signal SIGKILL/);

    assert.equal((await fetch(`${server.url}/`)).status, 200);
    const again = await postJson(`${server.url}/api/generate`, {
      model: "demo",
      prompt: "x",
      stream: false,
      options: { num_predict: 3, seed: 1 },
    });
    assert.equal(again.status, 200, again.text);
    const newPid = runnerPid(server);
    assert.ok(newPid && newPid !== pid, "the model was loaded again in a new runner");
  });

  it("answers a non-streamed generation 500 when its runner is killed", async () => {
    const pending = postJson(`${server.url}/api/generate`, {
      model: "demo",
      prompt: "x",
      stream: false,
      options: LONG,
    });
    await waitFor(
      async () => server.deps.scheduler.status()[0]?.active === 1,
      30_000,
      "the generation to start",
    );
    const pid = runnerPid(server);
    assert.ok(pid);
    process.kill(pid, "SIGKILL");
    const r = await pending;
    assert.equal(r.status, 500);
    assert.match((r.body as { error: string }).error, /^llama runner process has terminated/);
    const lines = await ndjsonLines(
      await fetch(`${server.url}/api/generate`, {
        method: "POST",
        body: JSON.stringify({ model: "demo", prompt: "y", options: { num_predict: 2 } }),
      }),
    );
    assert.equal(lines.at(-1)?.done, true, "the next generation on that model completes");
  });
});

describe("tokenizing a huge prompt", { timeout: 120_000 }, () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.stop());

  it("leaves the server answering other requests while the runner tokenizes", async () => {
    const preload = await postJson(`${server.url}/api/generate`, {
      model: "demo",
      prompt: "x",
      stream: false,
      options: { num_ctx: HUGE_CTX, num_predict: 1 },
    });
    assert.equal(preload.status, 200, preload.text);
    let settled = false;
    const huge = postJson(`${server.url}/api/generate`, {
      model: "demo",
      prompt: HUGE_PROMPT,
      raw: true,
      stream: false,
      truncate: false,
      options: { num_ctx: HUGE_CTX },
    }).finally(() => {
      settled = true;
    });
    // Seen only if the server can answer while the prompt is being tokenized.
    await waitFor(
      async () => server.deps.scheduler.status()[0]?.active === 1 || settled,
      30_000,
      "the huge generation to hold its slot",
    );
    const root = await fetch(`${server.url}/`);
    const tags = await fetch(`${server.url}/api/tags`);
    assert.equal(settled, false, "/ and /api/tags answered while the prompt was being tokenized");
    assert.equal(root.status, 200);
    assert.equal(tags.status, 200);
    const r = await huge;
    assert.equal(r.status, 400);
    assert.match(
      (r.body as { error: string }).error,
      /^the input length exceeds the context length$/,
    );
  });

  it("refuses a prompt that cannot fit at once, without tokenizing it", async () => {
    const r = await postJson(`${server.url}/api/generate`, {
      model: "demo",
      prompt: "a".repeat(320_000),
      stream: false,
      truncate: false,
      options: { num_ctx: 512 },
    });
    assert.equal(r.status, 400);
    assert.match(
      (r.body as { error: string }).error,
      /^the input length exceeds the context length$/,
    );
  });
});

describe("a runner still tokenizing for a client that left", { timeout: 120_000 }, () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(
      {},
      { ensureDemo: true, runtime: new ProcessRuntime({ maxThreads: 1, abortGraceMs: 100 }) },
    );
  });
  after(() => server.stop());

  it("is killed once it does not answer, and the model loads again for the next request", async () => {
    const preload = await postJson(`${server.url}/api/generate`, {
      model: "demo",
      prompt: "x",
      stream: false,
      options: { num_ctx: HUGE_CTX, num_predict: 1 },
    });
    assert.equal(preload.status, 200, preload.text);
    const client = new AbortController();
    // One run of 300,000 letters: several seconds of tokenizing on the demo model.
    const gone = fetch(`${server.url}/api/generate`, {
      method: "POST",
      body: JSON.stringify({
        model: "demo",
        prompt: "a".repeat(300_000),
        raw: true,
        stream: false,
        options: { num_ctx: HUGE_CTX },
      }),
      signal: client.signal,
    }).catch(() => undefined);
    await waitFor(
      async () => server.deps.scheduler.status()[0]?.active === 1,
      30_000,
      "the huge generation to hold its slot",
    );
    const pid = runnerPid(server);
    client.abort();
    await gone;
    await waitFor(
      async () => server.deps.scheduler.status().length === 0,
      30_000,
      "the stuck runner to be ended",
    );
    assert.ok(pid);
    const next = await postJson(`${server.url}/api/generate`, {
      model: "demo",
      prompt: "x",
      stream: false,
      options: { num_predict: 2 },
    });
    assert.equal(next.status, 200, next.text);
    assert.notEqual(runnerPid(server), pid);
  });
});

describe("a GGUF whose metadata makes llama.cpp abort", { timeout: 60_000 }, () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "llmsrv-abort-"));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  /** A small generated model with one u32 metadata value overwritten in place. */
  async function craft(key: string, value: number): Promise<string> {
    const path = join(dir, `${key}-${value}.gguf`);
    await writeDemoModel(path, {
      embeddingLength: 64,
      headCount: 4,
      headCountKv: 2,
      feedForwardLength: 128,
    });
    const bytes = await readFile(path);
    // A u32 key-value pair: the key, its type (4 = u32), then the value.
    const at = bytes.indexOf(key) + key.length;
    assert.equal(bytes.readUInt32LE(at), 4, `${key} is a u32`);
    bytes.writeUInt32LE(value, at + 4);
    await writeFile(path, bytes);
    return path;
  }

  for (const [key, value] of [
    ["llama.block_count", 1000],
    ["llama.attention.head_count", 0],
  ] as const) {
    it(`fails the load (${key}=${value}) with llama.cpp's reason and leaves this process running`, async () => {
      const runtime = new ProcessRuntime({ maxThreads: 1 });
      try {
        const load = runtime.load({
          modelPath: await craft(key, value),
          contextSize: 256,
          sequences: 1,
          threads: 1,
          flashAttention: false,
          kvCacheType: "f16",
        });
        await assert.rejects(load, (e: unknown) => {
          assert.ok(e instanceof LlmsrvError);
          assert.equal(e.code, "model_load_failed");
          assert.match(
            e.message,
            /^llama runner process has terminated: signal SIGABRT: .*GGML_ASSERT/,
          );
          return true;
        });
      } finally {
        await runtime.close();
      }
    });
  }
});
