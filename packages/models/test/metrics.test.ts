/** GET /metrics on the real server with the demo model: the counters move with requests. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { sampleValue } from "@quintet/kit";
import { postJson, startTestServer, type TestServer } from "./harness.js";

describe("GET /metrics", () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ LLMSRV_API_KEY: "k" });
  });
  after(async () => {
    await server?.stop();
  });

  async function scrape(): Promise<string> {
    const res = await fetch(`${server.url}/metrics`);
    assert.equal(res.status, 200, "no API key needed, as for the health check");
    assert.match(res.headers.get("content-type") ?? "", /^text\/plain; version=0\.0\.4/);
    return res.text();
  }

  it("counts requests by route and code, tokens generated, and shows loaded models and the queue", async () => {
    const before = await scrape();
    assert.equal(sampleValue(before, "llmsrv_loaded_models"), 0);
    const auth = { headers: { Authorization: "Bearer k" } };
    const generated = await postJson(
      `${server.url}/api/generate`,
      { model: "demo", prompt: "Hello", stream: false, options: { num_predict: 8, seed: 1 } },
      auth,
    );
    assert.equal(generated.status, 200, generated.text);
    const evalCount = (generated.body as { eval_count: number }).eval_count;
    assert.ok(evalCount > 0);
    const refused = await postJson(`${server.url}/api/generate`, { model: "demo", prompt: "x" });
    assert.equal(refused.status, 401);
    assert.equal((await fetch(`${server.url}/no/such/route`)).status, 404);

    const after = await scrape();
    const moved = (name: string, labels: Record<string, string> = {}) =>
      sampleValue(after, name, labels) - sampleValue(before, name, labels);
    const generate = { method: "POST", route: "/api/generate" };
    assert.equal(moved("llmsrv_http_requests_total", { ...generate, code: "200" }), 1);
    assert.equal(moved("llmsrv_http_requests_total", { ...generate, code: "401" }), 1);
    assert.equal(moved("llmsrv_http_requests_total", { route: "other", code: "404" }), 1);
    assert.equal(moved("llmsrv_http_request_duration_seconds_count", generate), 2);
    assert.equal(moved("llmsrv_generated_tokens_total"), evalCount);
    assert.ok(moved("llmsrv_prompt_tokens_total") > 0);
    assert.ok(moved("llmsrv_generation_seconds_total") > 0);
    assert.ok(sampleValue(after, "llmsrv_tokens_per_second") > 0);
    assert.equal(sampleValue(after, "llmsrv_loaded_models"), 1);
    assert.equal(sampleValue(after, "llmsrv_queue_depth"), 0, "nothing waits once all answered");
    assert.ok(sampleValue(after, "process_cpu_seconds_total") > 0);
  });
});
