/** GET /metrics: OPA's HTTP request metric and the evaluation counters move with requests. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { sampleValue } from "@quintet/kit";
import { EXAMPLES_DIR } from "../fixtures.js";
import { type Harness, startHarness } from "./server-harness.js";

describe("GET /metrics", () => {
  let h: Harness;
  before(async () => {
    h = await startHarness([EXAMPLES_DIR]);
  });
  after(async () => {
    await h.server.close(1000);
  });

  async function scrape(): Promise<string> {
    const res = await h.get("/metrics");
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^text\/plain; version=0\.0\.4/);
    return res.text();
  }

  it("counts requests by code, handler and method, and evaluations by outcome", async () => {
    const before = await scrape();
    const count = (text: string, labels: Record<string, string>) =>
      sampleValue(text, "http_request_duration_seconds_count", labels);
    const evals = (text: string, outcome: string) =>
      sampleValue(text, "rego_query_eval_total", { outcome });

    const input = JSON.stringify({ input: { name: "alice", role: "admin" } });
    assert.equal((await h.post("/v1/data/permissions", input)).status, 200);
    assert.equal((await h.post("/v1/data/permissions", input)).status, 200);
    assert.equal((await h.get("/v1/data/no/such/rule")).status, 200);
    assert.equal((await h.get("/health")).status, 200);
    assert.equal((await h.get("/v2/nothing")).status, 404);
    assert.equal((await h.post("/v1/data/permissions", "{not json")).status, 400);

    const after = await scrape();
    const moved = (labels: Record<string, string>) => count(after, labels) - count(before, labels);
    assert.equal(moved({ code: "200", handler: "v1/data", method: "POST" }), 2);
    assert.equal(moved({ code: "200", handler: "v1/data", method: "GET" }), 1);
    assert.equal(moved({ code: "400", handler: "v1/data", method: "POST" }), 1);
    assert.equal(moved({ code: "200", handler: "health", method: "GET" }), 1);
    assert.equal(moved({ code: "404", handler: "other", method: "GET" }), 1);
    // The first scrape itself was answered and measured too.
    assert.ok(count(after, { code: "200", handler: "metrics", method: "GET" }) >= 1);
    // Two decisions, and the health check, which (as in OPA) evaluates a trivial query.
    assert.equal(evals(after, "defined") - evals(before, "defined"), 3);
    assert.equal(evals(after, "undefined") - evals(before, "undefined"), 1);
    assert.ok(sampleValue(after, "rego_query_eval_duration_seconds_count") >= 4);
    assert.ok(sampleValue(after, "process_cpu_seconds_total") > 0, "process metrics are there");
  });

  it("counts a query API evaluation as defined when it has results", async () => {
    const before = sampleValue(await scrape(), "rego_query_eval_total", { outcome: "defined" });
    const res = await h.get(`/v1/query?q=${encodeURIComponent("x := 1")}`);
    assert.equal(res.status, 200);
    const after = sampleValue(await scrape(), "rego_query_eval_total", { outcome: "defined" });
    assert.equal(after - before, 1);
  });

  it("still counts evaluations after a policy write swaps in a new engine", async () => {
    const put = await h.send("PUT", "/v1/policies/extra", "package extra\n\nanswer := 42\n");
    assert.equal(put.status, 200);
    const before = sampleValue(await scrape(), "rego_query_eval_total", { outcome: "defined" });
    const res = await h.get("/v1/data/extra/answer");
    assert.deepEqual(await res.json(), { result: 42 });
    const after = sampleValue(await scrape(), "rego_query_eval_total", { outcome: "defined" });
    assert.equal(after - before, 1);
  });
});
