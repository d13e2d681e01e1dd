/** Health, pretty printing, metrics, decision logs and the query API. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { EXAMPLES_DIR } from "../fixtures.js";
import { type Harness, startHarness } from "./server-harness.js";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("a server without decision logs", () => {
  let h: Harness;
  before(async () => {
    h = await startHarness([EXAMPLES_DIR]);
  });
  after(async () => {
    await h.server.close(1000);
  });

  it("reports health as 200 {}", async () => {
    const res = await h.get("/health");
    assert.equal(res.status, 200);
    assert.equal(await res.text(), "{}\n");
  });

  it("reports an undefined health rule as 500", async () => {
    const res = await h.get("/health/live");
    assert.equal(res.status, 500);
    assert.deepEqual(await res.json(), {
      error: "health check (data.system.health.live) was undefined",
    });
  });

  it("indents the body with ?pretty and ends it with a newline", async () => {
    const res = await h.post(
      "/v1/data/simple?pretty",
      JSON.stringify({ input: { name: "alice" } }),
    );
    assert.equal(
      await res.text(),
      '{\n  "result": {\n    "allow": true,\n    "env": "dev"\n  }\n}\n',
    );
    const compact = await h.post(
      "/v1/data/simple?pretty=false",
      JSON.stringify({ input: { name: "alice" } }),
    );
    assert.equal(await compact.text(), '{"result":{"allow":true,"env":"dev"}}\n');
  });

  it("adds nanosecond timers with ?metrics", async () => {
    const res = await h.post(
      "/v1/data/limits?metrics=true",
      JSON.stringify({ input: { name: "bob" } }),
    );
    const body = (await res.json()) as { metrics: Record<string, number>; result: unknown };
    for (const key of [
      "timer_rego_input_parse_ns",
      "timer_rego_query_eval_ns",
      "timer_server_handler_ns",
    ]) {
      assert.ok(Number.isInteger(body.metrics[key]) && (body.metrics[key] as number) >= 0, key);
    }
    assert.deepEqual(body.result, { allow: true, role: "user", limit: 1000.75 });
  });

  it("reads a YAML body when the content type says yaml", async () => {
    const res = await h.post("/v1/data/simple/allow", "input:\n  name: alice\n", {
      "content-type": "application/x-yaml",
    });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { result: true });
    const bad = await h.post("/v1/data/simple/allow", "input: [unclosed\n", {
      "content-type": "application/yaml",
    });
    assert.equal(bad.status, 400);
  });

  it("keeps big integers of the input exact", async () => {
    const res = await h.post(
      "/v1/query",
      '{"query": "x := input.n + 1", "input": {"n": 12345678901234567890}}',
    );
    assert.equal(await res.text(), '{"result":[{"x":12345678901234567891}]}\n');
  });

  it("has no decision_id when decision logging is off", async () => {
    const res = await h.post("/v1/data/simple", JSON.stringify({ input: { name: "alice" } }));
    assert.equal("decision_id" in ((await res.json()) as object), false);
  });

  it("answers the query API with bindings per solution", async () => {
    const q = encodeURIComponent("x := data.limits_by_roles[r]; x > 4000");
    const res = await h.get(`/v1/query?q=${q}`);
    assert.equal(res.status, 200);
    const body = (await res.json()) as { result: Record<string, unknown>[] };
    const sorted = body.result.sort((a, b) => String(a.r).localeCompare(String(b.r)));
    assert.deepEqual(sorted, [
      { r: "admin", x: 10000.5 },
      { r: "manager", x: 5000.25 },
    ]);
    const post = await h.post(
      "/v1/query",
      JSON.stringify({ query: "data.simple.allow", input: { name: "alice" } }),
    );
    assert.equal(post.status, 200);
    const missing = await h.get("/v1/query");
    assert.equal(missing.status, 400);
    assert.equal(((await missing.json()) as { message: string }).message, "missing parameter 'q'");
  });

  it("lists the loaded policy files and returns one by id", async () => {
    const list = await h.get("/v1/policies");
    assert.equal(list.status, 200);
    const body = (await list.json()) as { result: { id: string; raw: string }[] };
    const ids = body.result.map((p) => p.id).sort();
    assert.equal(ids.length, 3);
    assert.match(ids[0] ?? "", /policies\/limits\.rego$/);
    const one = await h.get(`/v1/policies${ids[0]?.startsWith("/") ? "" : "/"}${ids[0]}`);
    assert.equal(one.status, 200);
    assert.match(
      ((await one.json()) as { result: { raw: string } }).result.raw,
      /^# Component B, package `limits`/,
    );
    const missing = await h.get("/v1/policies/nope.rego");
    assert.equal(missing.status, 404);
    assert.equal(((await missing.json()) as { code: string }).code, "resource_not_found");
    assert.equal((await h.request("PUT", "/v1/policies")).status, 405);
  });

  it("answers the v0 webhook with the bare value, 404 undefined_document when undefined", async () => {
    const res = await h.post("/v0/data/limits/limit", JSON.stringify({ name: "alice" }));
    assert.equal(res.status, 200);
    assert.equal(await res.text(), "10000.5\n");
    const undef = await h.post("/v0/data/limits/role", JSON.stringify({ name: "mallory" }));
    assert.equal(undef.status, 404);
    assert.deepEqual(await undef.json(), {
      code: "undefined_document",
      message: "document missing: data.limits.role",
    });
    const bad = await h.post("/v0/data/limits", "{");
    assert.equal(bad.status, 400);
  });

  it("answers a query that does not parse with 400 and the parse error", async () => {
    const res = await h.get(`/v1/query?q=${encodeURIComponent("x := := 1")}`);
    assert.equal(res.status, 400);
    const body = (await res.json()) as {
      code: string;
      message: string;
      errors: { code: string }[];
    };
    assert.equal(body.code, "invalid_parameter");
    assert.equal(body.message, "error(s) occurred while parsing query");
    assert.equal(body.errors[0]?.code, "rego_parse_error");
  });
});

describe("a server with decision logs", () => {
  let h: Harness;
  before(async () => {
    h = await startHarness([EXAMPLES_DIR], { decisionLogs: true });
  });
  after(async () => {
    await h.server.close(1000);
  });

  it("returns a UUIDv4 decision_id and logs one JSON line per decision", async () => {
    const before = h.logLines.length;
    const res = await h.post("/v1/data/limits", JSON.stringify({ input: { name: "alice" } }));
    const body = (await res.json()) as { decision_id: string; result: unknown };
    assert.match(body.decision_id, UUID_V4);
    // The line is written once the decision has been through the (empty) mask policy.
    while (h.logLines.length === before) await new Promise((r) => setTimeout(r, 5));
    assert.equal(h.logLines.length, before + 1);
    const line = h.logLines.at(-1) as string;
    assert.ok(line.endsWith("\n") && !line.slice(0, -1).includes("\n"));
    const entry = JSON.parse(line) as Record<string, unknown>;
    assert.equal(entry.decision_id, body.decision_id);
    assert.equal(entry.path, "limits");
    assert.deepEqual(entry.input, { name: "alice" });
    assert.deepEqual(entry.result, body.result);
    assert.equal(entry.msg, "Decision Log");
    assert.match((entry.labels as { id: string }).id, UUID_V4);
  });

  it("gives every decision its own id", async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const res = await h.post("/v1/data/simple", JSON.stringify({ input: { name: "bob" } }));
      ids.add(((await res.json()) as { decision_id: string }).decision_id);
    }
    assert.equal(ids.size, 5);
  });
});
