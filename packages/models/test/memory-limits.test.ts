import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { LlmsrvError } from "../src/errors.js";
import type { LoadedModel, LoadSpec, ModelRuntime } from "../src/runtime/model-runner.js";
import { ProcessRuntime, type ProcessRuntimeOptions } from "../src/runtime/process-runtime.js";
import { postJson, startTestServer, type TestServer, waitFor } from "./harness.js";

/** Contexts larger than this never reach llama.cpp in these tests (see GuardedRuntime). */
const GUARD_CONTEXT = 1_000_000;

/**
 * The real runtime, recording every load it is asked for. A load of an absurd context is
 * refused here instead of reaching llama.cpp, so that a server that does not refuse it
 * first fails the test without taking the machine's memory.
 */
class GuardedRuntime implements ModelRuntime {
  readonly loads: number[] = [];
  private readonly inner: ProcessRuntime;

  constructor(options: Partial<ProcessRuntimeOptions> = {}) {
    this.inner = new ProcessRuntime({ maxThreads: 1, ...options });
  }

  load(spec: LoadSpec, signal?: AbortSignal): Promise<LoadedModel> {
    this.loads.push(spec.contextSize);
    if (spec.contextSize > GUARD_CONTEXT)
      throw new LlmsrvError(
        "internal",
        `test guard: a ${spec.contextSize}-token load was attempted`,
      );
    return this.inner.load(spec, signal);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

const NO_MEMORY =
  /^model requires more system memory \(([\d.]+) (GiB|TiB)\) than is available \([\d.]+ [GM]iB\)$/;

function errorOf(r: { body: unknown }): string {
  return (r.body as { error: string }).error;
}

describe("a context that cannot fit is refused before anything is loaded or evicted", {
  timeout: 120_000,
}, () => {
  let server: TestServer;
  const runtime = new GuardedRuntime();
  before(async () => {
    server = await startTestServer(
      { LLMSRV_MAX_NUM_CTX: "2000000000" },
      { ensureDemo: true, runtime },
    );
  });
  after(() => server.stop());

  it("num_ctx 999999999 answers 500 in Ollama's words at once; the loaded model stays", async () => {
    const warm = await postJson(`${server.url}/api/generate`, {
      model: "demo",
      prompt: "x",
      stream: false,
      options: { num_predict: 1 },
    });
    assert.equal(warm.status, 200, warm.text);
    const [loaded] = server.deps.scheduler.status();
    assert.ok(loaded?.runnerPid);
    const huge = await postJson(`${server.url}/api/generate`, {
      model: "demo",
      prompt: "x",
      stream: false,
      options: { num_ctx: 999_999_999 },
    });
    assert.equal(huge.status, 500, huge.text);
    assert.match(errorOf(huge), NO_MEMORY);
    assert.deepEqual(runtime.loads, [512], "no load was attempted for the huge context");
    const [still] = server.deps.scheduler.status();
    assert.equal(
      still?.runnerPid,
      loaded.runnerPid,
      "the loaded model was neither evicted nor reloaded",
    );
    assert.equal(still?.contextLength, 512);
  });

  it("chat and embeddings are refused the same way", async () => {
    const chat = await postJson(`${server.url}/api/chat`, {
      model: "demo",
      messages: [{ role: "user", content: "x" }],
      stream: false,
      options: { num_ctx: 500_000_000 },
    });
    assert.equal(chat.status, 500);
    assert.match(errorOf(chat), NO_MEMORY);
    const embed = await postJson(`${server.url}/api/embed`, {
      model: "demo",
      input: "x",
      options: { num_ctx: 500_000_000 },
    });
    assert.equal(embed.status, 500);
    assert.match(errorOf(embed), NO_MEMORY);
    assert.deepEqual(runtime.loads, [512]);
  });
});

describe("LLMSRV_MAX_NUM_* cap what a request may ask for", { timeout: 120_000 }, () => {
  let server: TestServer;
  const runtime = new GuardedRuntime();
  before(async () => {
    server = await startTestServer({ LLMSRV_MAX_NUM_PREDICT: "3" }, { ensureDemo: true, runtime });
  });
  after(() => server.stop());

  it("refuses num_ctx over the default cap with 400 naming it, before any load", async () => {
    const r = await postJson(`${server.url}/api/generate`, {
      model: "demo",
      prompt: "x",
      stream: false,
      options: { num_ctx: 999_999_999 },
    });
    assert.equal(r.status, 400);
    assert.equal(
      errorOf(r),
      'option "num_ctx" must not exceed 131072 (LLMSRV_MAX_NUM_CTX), got 999999999',
    );
    const batch = await postJson(`${server.url}/api/generate`, {
      model: "demo",
      prompt: "x",
      stream: false,
      options: { num_batch: 1_000_000 },
    });
    assert.equal(batch.status, 400);
    assert.match(errorOf(batch), /"num_batch" must not exceed 2048 \(LLMSRV_MAX_NUM_BATCH\)/);
    assert.deepEqual(runtime.loads, []);
  });

  it("refuses num_predict over the cap, and stops an unbounded generation at it", async () => {
    const over = await postJson(`${server.url}/api/generate`, {
      model: "demo",
      prompt: "x",
      stream: false,
      options: { num_predict: 4 },
    });
    assert.equal(over.status, 400);
    assert.match(
      errorOf(over),
      /"num_predict" must not exceed 3 \(LLMSRV_MAX_NUM_PREDICT\), got 4/,
    );
    const unbounded = await postJson(`${server.url}/api/generate`, {
      model: "demo",
      prompt: "x",
      stream: false,
      options: { num_predict: -1, seed: 7 },
    });
    assert.equal(unbounded.status, 200, unbounded.text);
    const body = unbounded.body as { eval_count: number; done_reason: string };
    assert.deepEqual([body.eval_count, body.done_reason], [3, "length"]);
  });
});

describe("LLMSRV_MAX_MODEL_MEMORY caps what one model may need", { timeout: 120_000 }, () => {
  it("refuses the demo model (about 54 MB of weights) under a 50 MiB cap without loading it", async () => {
    const runtime = new GuardedRuntime();
    const server = await startTestServer(
      { LLMSRV_MAX_MODEL_MEMORY: "50MiB" },
      { ensureDemo: true, runtime },
    );
    try {
      const r = await postJson(`${server.url}/api/generate`, {
        model: "demo",
        prompt: "x",
        stream: false,
      });
      assert.equal(r.status, 500);
      assert.match(
        errorOf(r),
        /^model requires more system memory \([\d.]+ MiB\) than is available \(50\.0 MiB\)$/,
      );
      assert.deepEqual(runtime.loads, []);
    } finally {
      await server.stop();
    }
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("a client that gives up stops the load it is waiting for", { timeout: 120_000 }, () => {
  let loadingPid: number | undefined;
  let server: TestServer;
  before(async () => {
    // The first runner to load is stopped (SIGSTOP): its load can only end by being killed.
    const runtime = new GuardedRuntime({
      onLoadStart: (pid) => {
        if (loadingPid !== undefined || pid === undefined) return;
        loadingPid = pid;
        process.kill(pid, "SIGSTOP");
      },
    });
    server = await startTestServer({}, { ensureDemo: true, runtime });
  });
  after(async () => {
    if (loadingPid !== undefined && alive(loadingPid)) process.kill(loadingPid, "SIGKILL");
    await server.stop();
  });

  it("kills the loading runner when the request is canceled; the next request is served", async () => {
    const controller = new AbortController();
    const first = fetch(`${server.url}/api/generate`, {
      method: "POST",
      body: JSON.stringify({ model: "demo", prompt: "x", stream: false }),
      signal: controller.signal,
    }).catch((e: Error) => e);
    await waitFor(async () => loadingPid !== undefined, 30_000, "the load to start");
    controller.abort();
    assert.ok((await first) instanceof Error);
    const pid = loadingPid as number;
    await waitFor(async () => !alive(pid), 30_000, `the loading runner ${pid} to end`);
    const next = await postJson(`${server.url}/api/generate`, {
      model: "demo",
      prompt: "x",
      stream: false,
      options: { num_predict: 1 },
    });
    assert.equal(next.status, 200, next.text);
    assert.notEqual(server.deps.scheduler.status()[0]?.runnerPid, pid);
  });
});
