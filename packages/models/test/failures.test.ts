import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { LlmsrvError } from "../src/errors.js";
import { NdjsonWriter } from "../src/http/ndjson.js";
import { ProcessRuntime } from "../src/runtime/process-runtime.js";
import { postJson, startTestServer, type TestServer } from "./harness.js";

describe("a model that does not fit in memory", { timeout: 120_000 }, () => {
  let server: TestServer;
  before(async () => {
    // The real runtime, told that only 1 MiB is free: loading must fail before llama.cpp allocates.
    server = await startTestServer(
      {},
      {
        ensureDemo: true,
        runtime: new ProcessRuntime({ maxThreads: 1, availableMemory: () => 2 ** 20 }),
      },
    );
  });
  after(() => server.stop());

  it("answers 500 with a message saying it needs more memory than is available, and loads nothing", async () => {
    const r = await postJson(`${server.url}/api/generate`, {
      model: "demo",
      prompt: "x",
      stream: false,
    });
    assert.equal(r.status, 500);
    assert.match(
      (r.body as { error: string }).error,
      /^model requires more system memory \(\d+\.\d MiB\) than is available \(1\.0 MiB\)$/,
    );
    const ps = (await postJson(`${server.url}/api/ps`, undefined, { method: "GET" })).body as {
      models: unknown[];
    };
    assert.deepEqual(ps.models, []);
  });

  it("counts the KV cache of the requested context: weights fit, a huge num_ctx does not", async () => {
    const roomy = await startTestServer(
      {},
      {
        ensureDemo: true,
        runtime: new ProcessRuntime({ maxThreads: 1, availableMemory: () => 200 * 2 ** 20 }),
      },
    );
    try {
      const ok = await postJson(`${roomy.url}/api/generate`, {
        model: "demo",
        prompt: "x",
        stream: false,
        options: { num_predict: 1 },
      });
      assert.equal(ok.status, 200, ok.text);
      const huge = await postJson(`${roomy.url}/api/generate`, {
        model: "demo",
        prompt: "x",
        stream: false,
        options: { num_ctx: 100_000 },
      });
      assert.equal(huge.status, 500);
      assert.match(
        (huge.body as { error: string }).error,
        /^model requires more system memory \([\d.]+ [MG]iB\) than is available \(200\.0 MiB\)$/,
      );
    } finally {
      await roomy.stop();
    }
  });

  it("reports the failure as the last NDJSON line when the client asked for a stream", async () => {
    const r = await postJson(`${server.url}/api/generate`, { model: "demo", prompt: "x" });
    assert.equal(r.status, 500, "nothing was streamed yet, so the status carries the error");
  });
});

describe("NDJSON streams that fail midway", () => {
  let server: Server;
  let url: string;
  before(async () => {
    server = createServer((_req, res) => {
      const out = new NdjsonWriter(res);
      out.write({ response: "partial", done: false });
      out.writeError(new LlmsrvError("internal", "runner died"));
      out.end();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  it('keep status 200 and end with an {"error"} line instead of a dropped connection', async () => {
    const res = await fetch(url);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "application/x-ndjson");
    const lines = (await res.text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    assert.deepEqual(lines, [{ response: "partial", done: false }, { error: "runner died" }]);
  });
});
