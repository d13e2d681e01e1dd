import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Ollama } from "ollama";
import {
  createTinyModel,
  loadedModels,
  postJson,
  startStreaming,
  startTestServer,
  type TestServer,
  waitFor,
} from "./harness.js";

/**
 * Options that keep the demo model generating for minutes even on a fast machine, so only
 * cancellation can free its slot within the tests' waits.
 */
const LONG = { num_ctx: 32768, num_predict: 30000, seed: 1 };

describe("keep-alive transitions", { timeout: 180_000 }, () => {
  let server: TestServer;
  let ollama: Ollama;

  before(async () => {
    server = await startTestServer();
    ollama = new Ollama({ host: server.url });
  });
  after(() => server.stop());

  it("keep_alive 0 unloads the model as soon as the request completes", async () => {
    await ollama.generate({
      model: "demo",
      prompt: "x",
      stream: false,
      keep_alive: 0,
      options: { num_predict: 2 },
    });
    assert.deepEqual(await loadedModels(server.url), []);
  });

  it("keep_alive -1 keeps the model loaded forever, also across later requests without keep_alive", async () => {
    await ollama.generate({
      model: "demo",
      prompt: "x",
      stream: false,
      keep_alive: -1,
      options: { num_predict: 2 },
    });
    await ollama.generate({
      model: "demo",
      prompt: "y",
      stream: false,
      options: { num_predict: 2 },
    });
    const [m] = await loadedModels(server.url);
    assert.equal(m?.name, "demo:latest");
    assert.ok(new Date(m?.expires_at ?? 0).getUTCFullYear() > 2200, "expires far in the future");
  });

  it("a duration keep-alive unloads the idle model once it elapses, and only that model", async () => {
    // A server of its own holding two models: tiny kept for ten minutes, then demo for one second.
    const two = await startTestServer({ LLMSRV_MAX_LOADED_MODELS: "2" });
    try {
      await createTinyModel(two.url, "tiny", 11);
      const client = new Ollama({ host: two.url });
      const use = (model: string, keepAlive: string) =>
        client.generate({
          model,
          prompt: "x",
          stream: false,
          keep_alive: keepAlive,
          options: { num_predict: 1 },
        });
      await use("tiny", "10m");
      await use("demo", "1s");
      const expiry = new Map(
        (await loadedModels(two.url)).map((m) => [m.name, Date.parse(m.expires_at)]),
      );
      const tinyExpiry = expiry.get("tiny:latest");
      assert.ok(tinyExpiry, "tiny is loaded");
      const demoExpiry = expiry.get("demo:latest");
      // Demo may be gone already on a slow machine; while listed, it expires first.
      if (demoExpiry !== undefined) assert.ok(demoExpiry < tinyExpiry, "1s ends before 10m");
      await waitFor(
        async () => !(await loadedModels(two.url)).some((m) => m.name === "demo:latest"),
        30_000,
        "demo unloaded after 1s",
      );
      // Its own keep-alive ended, not a sweep of idle models: tiny, used before it, stays.
      assert.deepEqual(
        (await loadedModels(two.url)).map((m) => m.name),
        ["tiny:latest"],
      );
    } finally {
      await two.stop();
    }
  });

  it("the stop path (empty prompt, keep_alive 0) unloads a model kept forever", async () => {
    await ollama.generate({
      model: "demo",
      prompt: "x",
      stream: false,
      keep_alive: -1,
      options: { num_predict: 1 },
    });
    assert.equal((await loadedModels(server.url)).length, 1);
    const r = await postJson(`${server.url}/api/chat`, {
      model: "demo",
      messages: [],
      keep_alive: 0,
    });
    assert.equal((r.body as { done_reason: string }).done_reason, "unload");
    assert.deepEqual(await loadedModels(server.url), []);
  });
});

describe("LLMSRV_KEEP_ALIVE=0 as the server default", { timeout: 120_000 }, () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ LLMSRV_KEEP_ALIVE: "0" });
  });
  after(() => server.stop());

  it("unloads after each request unless the request asks otherwise", async () => {
    const ollama = new Ollama({ host: server.url });
    await ollama.embed({ model: "demo", input: "x" });
    assert.deepEqual(await loadedModels(server.url), []);
    await ollama.embed({ model: "demo", input: "x", keep_alive: "5m" });
    assert.equal((await loadedModels(server.url)).length, 1);
  });
});

describe("eviction with LLMSRV_MAX_LOADED_MODELS", { timeout: 180_000 }, () => {
  let one: TestServer;
  let two: TestServer;
  before(async () => {
    one = await startTestServer();
    two = await startTestServer({ LLMSRV_MAX_LOADED_MODELS: "2" });
    await createTinyModel(one.url, "tiny", 11);
    await createTinyModel(two.url, "tiny", 11);
  });
  after(async () => {
    await one.stop();
    await two.stop();
  });

  it("with a maximum of 1, loading a second model evicts the least recently used idle one", async () => {
    const ollama = new Ollama({ host: one.url });
    await ollama.generate({
      model: "demo",
      prompt: "x",
      stream: false,
      options: { num_predict: 1 },
    });
    assert.deepEqual(
      (await loadedModels(one.url)).map((m) => m.name),
      ["demo:latest"],
    );
    await ollama.generate({
      model: "tiny",
      prompt: "x",
      stream: false,
      options: { num_predict: 1 },
    });
    assert.deepEqual(
      (await loadedModels(one.url)).map((m) => m.name),
      ["tiny:latest"],
    );
  });

  it("with a maximum of 2, both stay loaded, and a third evicts the one used longest ago", async () => {
    const ollama = new Ollama({ host: two.url });
    await createTinyModel(two.url, "tiny2", 12);
    await ollama.generate({
      model: "tiny",
      prompt: "x",
      stream: false,
      options: { num_predict: 1 },
    });
    await ollama.generate({
      model: "demo",
      prompt: "x",
      stream: false,
      options: { num_predict: 1 },
    });
    assert.deepEqual((await loadedModels(two.url)).map((m) => m.name).sort(), [
      "demo:latest",
      "tiny:latest",
    ]);
    await ollama.generate({
      model: "tiny2",
      prompt: "x",
      stream: false,
      options: { num_predict: 1 },
    });
    assert.deepEqual((await loadedModels(two.url)).map((m) => m.name).sort(), [
      "demo:latest",
      "tiny2:latest",
    ]);
  });
});

describe("queue limit, disconnects and parallel slots", { timeout: 300_000 }, () => {
  let queued: TestServer;
  let parallel: TestServer;
  before(async () => {
    queued = await startTestServer({ LLMSRV_MAX_QUEUE: "1" });
    parallel = await startTestServer({ LLMSRV_NUM_PARALLEL: "2" });
  });
  after(async () => {
    await queued.stop();
    await parallel.stop();
  });

  it("counts a request waiting on a loaded model, answers 503 past the limit, and a disconnect frees the slot", async () => {
    const running = await startStreaming(queued.url, {
      model: "demo",
      prompt: "long",
      options: LONG,
    });
    const waiting = postJson(`${queued.url}/api/generate`, {
      model: "demo",
      prompt: "short",
      stream: false,
      options: { ...LONG, num_predict: 2 },
    });
    await waitFor(
      async () => (await loadedModels(queued.url))[0]?.queued === 1,
      30_000,
      "one queued request",
    );
    const rejected = await postJson(`${queued.url}/api/generate`, {
      model: "demo",
      prompt: "third",
      stream: false,
      options: LONG,
    });
    assert.equal(rejected.status, 503);
    assert.deepEqual(rejected.body, {
      error: "server busy, please try again.  maximum pending requests exceeded",
    });
    const [ps] = await loadedModels(queued.url);
    assert.deepEqual([ps?.active, ps?.queued], [1, 1]);
    running.abort();
    const served = await waiting;
    assert.equal(served.status, 200);
    assert.equal((served.body as { eval_count: number }).eval_count, 2);
    await waitFor(
      async () => (await loadedModels(queued.url))[0]?.active === 0,
      30_000,
      "slots idle",
    );
  });

  it("a client that disconnects mid-generation stops it at once", async () => {
    const running = await startStreaming(queued.url, {
      model: "demo",
      prompt: "long",
      options: LONG,
    });
    assert.equal((await loadedModels(queued.url))[0]?.active, 1);
    running.abort();
    // 30000 tokens take minutes; only cancellation makes the slot idle within this wait.
    await waitFor(
      async () => (await loadedModels(queued.url))[0]?.active === 0,
      10_000,
      "cancelled generation",
    );
  });

  it("with LLMSRV_NUM_PARALLEL=2 two generations run at once on one loaded model", async () => {
    const a = await startStreaming(parallel.url, { model: "demo", prompt: "a", options: LONG });
    const b = await startStreaming(parallel.url, { model: "demo", prompt: "b", options: LONG });
    const [m] = await loadedModels(parallel.url);
    assert.deepEqual([m?.active, m?.queued], [2, 0]);
    a.abort();
    b.abort();
    await waitFor(
      async () => (await loadedModels(parallel.url))[0]?.active === 0,
      10_000,
      "both cancelled",
    );
  });
});

describe("load-time settings", { timeout: 120_000 }, () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({
      LLMSRV_KV_CACHE_TYPE: "q8_0",
      LLMSRV_FLASH_ATTENTION: "1",
      LLMSRV_CONTEXT_LENGTH: "256",
    });
  });
  after(() => server.stop());

  it("loads with flash attention, a q8_0 KV cache and the configured context length", async () => {
    const r = await postJson(`${server.url}/api/generate`, {
      model: "demo",
      prompt: "x",
      stream: false,
      options: { num_predict: 3 },
    });
    assert.equal(r.status, 200, r.text);
    assert.equal((r.body as { eval_count: number }).eval_count, 3);
    const [m] = (await loadedModels(server.url)) as Array<{ context_length?: number }>;
    assert.equal(m?.context_length, 256);
  });

  it("reloads the model when a request asks for another num_ctx", async () => {
    await postJson(`${server.url}/api/generate`, {
      model: "demo",
      prompt: "x",
      stream: false,
      options: { num_predict: 1, num_ctx: 128 },
    });
    const [m] = (await loadedModels(server.url)) as Array<{ context_length?: number }>;
    assert.equal(m?.context_length, 128);
  });
});
