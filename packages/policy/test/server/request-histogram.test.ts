import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { sampleValue } from "@quintet/kit";
import { Registry } from "prom-client";
import { RequestHistogram } from "../../src/server/request-histogram.js";

describe("RequestHistogram", () => {
  it("writes cumulative buckets, +Inf, sum and count per label set through prom-client", async () => {
    const registry = new Registry();
    const h = new RequestHistogram("t_seconds", "test", ["code", "method"], [0.1, 1], registry);
    h.observe(["200", "GET"], 0.05);
    h.observe(["200", "GET"], 0.1);
    h.observe(["200", "GET"], 0.5);
    h.observe(["200", "GET"], 7);
    h.observe(["500", "POST"], 2);
    const text = await registry.metrics();
    assert.match(text, /^# TYPE t_seconds histogram$/m);
    const ok = { code: "200", method: "GET" };
    assert.equal(sampleValue(text, "t_seconds_bucket", { ...ok, le: "0.1" }), 2, "le is inclusive");
    assert.equal(sampleValue(text, "t_seconds_bucket", { ...ok, le: "1" }), 3);
    assert.equal(sampleValue(text, "t_seconds_bucket", { ...ok, le: "+Inf" }), 4);
    assert.equal(sampleValue(text, "t_seconds_count", ok), 4);
    assert.equal(sampleValue(text, "t_seconds_sum", ok), 7.65);
    assert.equal(sampleValue(text, "t_seconds_bucket", { code: "500", le: "1" }), 0);
    assert.equal(sampleValue(text, "t_seconds_count", { code: "500", method: "POST" }), 1);
    registry.resetMetrics();
    assert.equal(sampleValue(await registry.metrics(), "t_seconds_count"), 0);
  });
});
