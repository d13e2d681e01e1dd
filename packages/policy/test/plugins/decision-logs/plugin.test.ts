/**
 * The decision logs plugin against a real log service started in the test: event fields,
 * gzip batches and headers, chunking, retries, buffer limits, masking, dropping, flushing.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { Agent } from "node:https";
import { createServer, type Socket } from "node:net";
import { afterEach, describe, it } from "node:test";
import { PolicyEngine } from "../../../src/engine.js";
import { parseDecisionLogsConfig } from "../../../src/plugins/decision-logs/config.js";
import type { Decision } from "../../../src/plugins/decision-logs/decision.js";
import { rfc3339 } from "../../../src/plugins/decision-logs/decision-event.js";
import {
  DecisionLogsPlugin,
  type DecisionLogsPluginOptions,
  type RuleEvaluator,
} from "../../../src/plugins/decision-logs/decision-logs-plugin.js";
import { RateLimiter } from "../../../src/plugins/decision-logs/rate-limiter.js";
import { startPolicyServer } from "../../../src/server/app.js";
import { makePki } from "../../test-pki.js";
import { type LogReceiver, startLogReceiver } from "./log-receiver.js";

const SHORT = { minDelayMs: 5, maxDelayMs: 20, minRetryDelayMs: 5, flushRetryDelayMs: 5 };
/** Periodic uploads that never come during a test: only explicit uploads and stop send. */
const NEVER = { minDelayMs: 3_600_000, maxDelayMs: 3_600_000 };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function engineWith(modules: Record<string, string> = {}): PolicyEngine {
  const engine = new PolicyEngine();
  for (const [file, source] of Object.entries(modules)) engine.addModule(file, source);
  engine.compile();
  return engine;
}

function decision(n: number, extra: Partial<Decision> = {}): Decision {
  return {
    path: "app/allow",
    input: { n },
    result: true,
    metrics: { timer_rego_query_eval_ns: 1000 + n },
    requestedBy: "127.0.0.1:4000",
    ...extra,
  };
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 5));
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Setup {
  plugin: DecisionLogsPlugin;
  receiver: LogReceiver;
}

async function setup(
  raw: Record<string, unknown> = {},
  options: Partial<DecisionLogsPluginOptions> & { modules?: Record<string, string> } = {},
): Promise<Setup> {
  const receiver = await startLogReceiver();
  cleanups.push(() => receiver.close());
  const config = parseDecisionLogsConfig({ service: "logs", ...raw }, ["logs"]);
  assert.ok(config);
  const engine = engineWith(options.modules);
  const plugin = new DecisionLogsPlugin({
    config,
    service: {
      name: "logs",
      url: receiver.url,
      headers: { "X-Tenant": "blue" },
      bearerToken: "s3cret",
    },
    engine: () => engine,
    labels: { version: "1.2.3" },
    timing: NEVER,
    ...options,
  });
  cleanups.push(() => plugin.stop(0));
  return { plugin, receiver };
}

describe("decision logs plugin: events and uploads", () => {
  it("uploads a gzip JSON array of events with OPA's fields and headers", async () => {
    const { plugin, receiver } = await setup(
      {},
      { bundles: () => ({ authz: { revision: "rev-7" } }) },
    );
    const ids = [1, 2, 3].map((n) => plugin.record(decision(n)));
    assert.equal(await plugin.upload(), true);
    assert.equal(receiver.batches.length, 1);
    const batch = receiver.batches[0];
    assert.ok(batch);
    assert.equal(batch.path, "/logs");
    assert.equal(batch.headers["content-encoding"], "gzip");
    assert.equal(batch.headers["content-type"], "application/json");
    assert.equal(batch.headers.authorization, "Bearer s3cret");
    assert.equal(batch.headers["x-tenant"], "blue");
    assert.deepEqual(
      batch.events.map((e) => e.decision_id),
      ids,
    );
    const first = batch.events[0] as Record<string, unknown>;
    assert.deepEqual(Object.keys(first), [
      "labels",
      "decision_id",
      "bundles",
      "path",
      "input",
      "result",
      "requested_by",
      "timestamp",
      "metrics",
      "req_id",
    ]);
    const labels = first.labels as Record<string, string>;
    assert.match(labels.id ?? "", UUID);
    assert.equal(labels.version, "1.2.3");
    assert.match(first.decision_id as string, UUID);
    assert.deepEqual(first.bundles, { authz: { revision: "rev-7" } });
    assert.equal(first.path, "app/allow");
    assert.deepEqual(first.input, { n: 1 });
    assert.equal(first.result, true);
    assert.equal(first.requested_by, "127.0.0.1:4000");
    assert.match(first.timestamp as string, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    assert.deepEqual(first.metrics, { timer_rego_query_eval_ns: 1001 });
    assert.deepEqual(
      batch.events.map((e) => e.req_id),
      [1, 2, 3],
    );
    // One instance id for every event.
    assert.equal(new Set(batch.events.map((e) => (e.labels as { id: string }).id)).size, 1);
  });

  it("leaves out what is undefined and keeps errors and null results", async () => {
    const { plugin, receiver } = await setup();
    plugin.record({ path: "", input: undefined, result: undefined, metrics: {}, requestedBy: "" });
    plugin.record(
      decision(2, {
        result: undefined,
        error: {
          code: "eval_conflict_error",
          message: "complete rules must not produce multiple outputs",
        },
      }),
    );
    plugin.record(decision(3, { result: null }));
    await plugin.upload();
    const [bare, failed, nullResult] = receiver.events();
    assert.deepEqual(Object.keys(bare ?? {}), ["labels", "decision_id", "timestamp", "req_id"]);
    assert.deepEqual(failed?.error, {
      code: "eval_conflict_error",
      message: "complete rules must not produce multiple outputs",
    });
    assert.equal("result" in (failed ?? {}), false);
    assert.equal(nullResult?.result, null);
    assert.equal("result" in (nullResult ?? {}), true);
  });

  it("posts to the configured resource below the service URL", async () => {
    const { plugin, receiver } = await setup({ resource: "/v2/decisions" });
    plugin.record(decision(1));
    await plugin.upload();
    assert.equal(receiver.batches[0]?.path, "/v2/decisions");
  });

  it("copies the configured request headers into request_context", async () => {
    const { plugin, receiver } = await setup({
      request_context: { http: { headers: ["X-Trace", "Missing"] } },
    });
    plugin.record(decision(1, { headers: { "x-trace": "abc", authorization: "Bearer t" } }));
    plugin.record(decision(2, { headers: { authorization: "Bearer t" } }));
    await plugin.upload();
    const [withHeader, without] = receiver.events();
    assert.deepEqual(withHeader?.request_context, { http: { headers: { "X-Trace": ["abc"] } } });
    assert.equal("request_context" in (without ?? {}), false);
  });

  it("splits uploads so that no compressed body exceeds upload_size_limit_bytes", async () => {
    const { plugin, receiver } = await setup({ reporting: { upload_size_limit_bytes: 1000 } });
    for (let n = 0; n < 60; n++) {
      plugin.record(decision(n, { input: { n, noise: randomBytes(60).toString("hex") } }));
    }
    await plugin.upload();
    assert.ok(receiver.batches.length > 3, `${receiver.batches.length} batches`);
    for (const b of receiver.batches) assert.ok(b.compressedBytes <= 1000, `${b.compressedBytes}`);
    assert.deepEqual(
      receiver.events().map((e) => (e.input as { n: number }).n),
      Array.from({ length: 60 }, (_, i) => i),
    );
  });

  it("uploads periodically once started", async () => {
    const { plugin, receiver } = await setup({}, { timing: SHORT });
    plugin.start();
    plugin.record(decision(1));
    plugin.record(decision(2));
    await receiver.waitForEvents(2);
    plugin.record(decision(3));
    await receiver.waitForEvents(3);
    assert.deepEqual(
      receiver.events().map((e) => (e.input as { n: number }).n),
      [1, 2, 3],
    );
  });

  it("works the same with the event buffer", async () => {
    const { plugin, receiver } = await setup({
      reporting: { buffer_type: "event", upload_size_limit_bytes: 500 },
    });
    for (let n = 0; n < 30; n++) {
      plugin.record(decision(n, { input: { n, noise: randomBytes(40).toString("hex") } }));
    }
    await plugin.upload();
    for (const b of receiver.batches) assert.ok(b.compressedBytes <= 500);
    assert.equal(receiver.events().length, 30);
  });

  it("returns the decision id before any policy runs", async () => {
    let evaluations = 0;
    const engine = engineWith();
    const counting: RuleEvaluator = {
      evalRefAsync: (path, options) => {
        evaluations++;
        return engine.evalRefAsync(path, options);
      },
    };
    const { plugin, receiver } = await setup({}, { engine: () => counting });
    const id = plugin.record(decision(1));
    assert.match(id, UUID);
    assert.equal(evaluations, 0);
    await plugin.upload();
    assert.equal(evaluations, 2, "drop and mask");
    assert.equal(receiver.events()[0]?.decision_id, id);
  });
});

describe("decision logs plugin: failures, limits and stopping", () => {
  it("keeps events through service errors and delivers each once when it recovers", async () => {
    const { plugin, receiver } = await setup({}, { timing: SHORT });
    receiver.failWith = 500;
    plugin.start();
    for (let n = 0; n < 5; n++) plugin.record(decision(n));
    await until(() => receiver.requests >= 3);
    assert.deepEqual(plugin.status(), {
      code: "decision_log_error",
      message: "log upload failed, server replied with HTTP 500 Internal Server Error",
      http_code: 500,
    });
    plugin.record(decision(5));
    receiver.failWith = undefined;
    await receiver.waitForEvents(6);
    const ns = receiver.events().map((e) => (e.input as { n: number }).n);
    assert.deepEqual([...ns].sort(), [0, 1, 2, 3, 4, 5]);
    await until(() => plugin.status().code === undefined);
    assert.deepEqual(plugin.status(), {});
  });

  it("keeps events while the service is down and sends them when it is back", async () => {
    const { plugin, receiver } = await setup();
    const port = Number(new URL(receiver.url).port);
    await receiver.close();
    plugin.record(decision(1));
    plugin.record(decision(2));
    assert.equal(await plugin.upload(), false);
    assert.match(plugin.status().message ?? "", /^log upload failed: .*ECONNREFUSED/);
    assert.equal(plugin.status().http_code, undefined);
    plugin.record(decision(3));
    assert.equal(await plugin.upload(), false);
    const back = await startLogReceiver(port);
    cleanups.push(() => back.close());
    assert.equal(await plugin.upload(), true);
    assert.deepEqual(
      back.events().map((e) => (e.input as { n: number }).n),
      [1, 2, 3],
    );
  });

  it("gives up on a service that does not answer within the response timeout", async () => {
    const sockets: Socket[] = [];
    const silentServer = createServer((socket) => sockets.push(socket));
    silentServer.listen(0, "127.0.0.1");
    await once(silentServer, "listening");
    cleanups.push(async () => {
      for (const s of sockets) s.destroy();
      silentServer.close();
    });
    const { port } = silentServer.address() as { port: number };
    const { plugin } = await setup(
      {},
      { service: { name: "logs", url: `http://127.0.0.1:${port}`, responseHeaderTimeoutMs: 50 } },
    );
    plugin.record(decision(1));
    assert.equal(await plugin.upload(), false);
    assert.equal(plugin.status().message, "log upload failed: no response within 50 ms");
  });

  it("uploads over https to a service whose CA the agent trusts", async () => {
    const pki = makePki();
    cleanups.push(async () => pki.remove());
    const receiver = await startLogReceiver(0, { key: pki.serverKey, cert: pki.serverCert });
    cleanups.push(() => receiver.close());
    const agent = new Agent({ ca: pki.ca });
    const { plugin } = await setup({}, { service: { name: "logs", url: receiver.url, agent } });
    plugin.record(decision(1));
    assert.equal(await plugin.upload(), true);
    assert.equal(receiver.events().length, 1);
    // Without the CA the certificate is refused and the event kept.
    const { plugin: untrusting } = await setup(
      {},
      { service: { name: "logs", url: receiver.url } },
    );
    untrusting.record(decision(2));
    assert.equal(await untrusting.upload(), false);
    assert.match(untrusting.status().message ?? "", /^log upload failed: .*certificate/);
    assert.equal(receiver.events().length, 1);
    agent.destroy();
  });

  it("drops the oldest events past buffer_size_limit_bytes", async () => {
    const { plugin, receiver } = await setup({
      reporting: { upload_size_limit_bytes: 400, buffer_size_limit_bytes: 1200 },
    });
    for (let n = 0; n < 100; n++) {
      plugin.record(decision(n, { input: { n, noise: randomBytes(50).toString("hex") } }));
    }
    await plugin.upload();
    const ns = receiver.events().map((e) => (e.input as { n: number }).n);
    assert.ok(ns.length < 100 && ns.length > 0, `${ns.length} events kept`);
    // The newest events survive, in order and without gaps.
    assert.deepEqual(
      ns,
      Array.from({ length: ns.length }, (_, i) => 100 - ns.length + i),
    );
    const total = receiver.batches.reduce((a, b) => a + b.compressedBytes, 0);
    assert.ok(total <= 1200, `${total} bytes kept`);
    assert.ok((plugin.metrics().decision_logs_dropped_buffer_size_limit_exceeded ?? 0) > 0);
  });

  it("bounds the retried events by the buffer limit too", async () => {
    const { plugin, receiver } = await setup({
      reporting: { buffer_type: "event", buffer_size_limit_events: 4 },
    });
    receiver.failWith = 503;
    for (let n = 0; n < 3; n++) plugin.record(decision(n));
    assert.equal(await plugin.upload(), false);
    assert.equal(plugin.status().http_code, 503);
    // The failed chunk counts as one item; four more events push it out.
    for (let n = 3; n < 7; n++) plugin.record(decision(n));
    receiver.failWith = undefined;
    assert.equal(await plugin.upload(), true);
    assert.deepEqual(
      receiver.events().map((e) => (e.input as { n: number }).n),
      [3, 4, 5, 6],
    );
    assert.equal(plugin.metrics().decision_logs_dropped_buffer_size_limit_exceeded, 1);
  });

  it("limits the events buffered per second", async () => {
    const { plugin, receiver } = await setup({ reporting: { max_decisions_per_second: 0 } });
    for (let n = 0; n < 5; n++) plugin.record(decision(n));
    await plugin.upload();
    // A rate of 0 leaves only the burst of one.
    assert.equal(receiver.events().length, 1);
    assert.equal(plugin.metrics().decision_logs_dropped_rate_limit_exceeded, 4);
  });

  it("flushes the buffer when stopped", async () => {
    const { plugin, receiver } = await setup();
    plugin.start();
    for (let n = 0; n < 3; n++) plugin.record(decision(n));
    assert.equal(receiver.requests, 0);
    assert.equal(await plugin.stop(5000), true);
    assert.equal(receiver.events().length, 3);
    // Decisions after stopping are not logged.
    plugin.record(decision(9));
    assert.equal(await plugin.upload(), true);
    assert.equal(receiver.events().length, 3);
  });

  it("retries the flush on stop until the service accepts it", async () => {
    const { plugin, receiver } = await setup({}, { timing: { ...NEVER, flushRetryDelayMs: 5 } });
    receiver.failWith = 500;
    plugin.record(decision(1));
    const stopped = plugin.stop(60_000);
    await until(() => receiver.requests >= 2);
    receiver.failWith = undefined;
    assert.equal(await stopped, true);
    assert.equal(receiver.events().length, 1);
  });

  it("leaves uploading to its owner with manual triggers, as OPA", async () => {
    const { plugin, receiver } = await setup({ reporting: { trigger: "manual" } });
    plugin.start();
    plugin.record(decision(1));
    assert.equal(await plugin.stop(5000), true);
    assert.equal(receiver.requests, 0);
    assert.equal(await plugin.upload(), true);
    assert.equal(receiver.events().length, 1);
  });

  it("gives up the flush when the grace period is over", async () => {
    const { plugin, receiver } = await setup();
    receiver.failWith = 500;
    plugin.record(decision(1));
    assert.equal(await plugin.stop(0), false);
    assert.equal(receiver.events().length, 0);
  });
});

describe("decision logs plugin: mask and drop policies", () => {
  const maskPolicy = `package system.log

mask contains "/input/password"

mask contains "/input/users/0/ssn"

mask contains "/input/tags/1"

mask contains {"op": "upsert", "path": "/input/user/token", "value": "**REDACTED**"} if {
  input.input.user.token
}

mask contains {"op": "upsert", "path": "/result/reason", "value": "hidden"}
`;

  it("erases and upserts what data.system.log.mask returns", async () => {
    const { plugin, receiver } = await setup({}, { modules: { "mask.rego": maskPolicy } });
    const input = {
      password: "pw",
      user: { name: "ann", token: "t0k" },
      users: [{ name: "bob", ssn: "123" }],
      tags: ["a", "b", "c"],
    };
    const result = { allow: true, reason: "admin" };
    plugin.record(decision(1, { input, result }));
    await plugin.upload();
    const e = receiver.events()[0];
    assert.deepEqual(e?.input, {
      user: { name: "ann", token: "**REDACTED**" },
      users: [{ name: "bob" }],
      tags: ["a", "c"],
    });
    assert.deepEqual(e?.result, { allow: true, reason: "hidden" });
    assert.deepEqual(e?.erased, ["/input/password", "/input/tags/1", "/input/users/0/ssn"]);
    assert.deepEqual(e?.masked, ["/input/user/token", "/result/reason"]);
    // The documents the server answered with are untouched.
    assert.equal(input.password, "pw");
    assert.equal(result.reason, "admin");
  });

  it("gives the policy the event as input", async () => {
    const policy = `package system.log

mask contains "/input/secret" if {
  input.path == "app/allow"
  input.labels.version == "1.2.3"
  input.requested_by == "127.0.0.1:4000"
  input.req_id == 1
  not input.metrics
}
`;
    const { plugin, receiver } = await setup({}, { modules: { "mask.rego": policy } });
    plugin.record(decision(1, { input: { secret: 1 } }));
    plugin.record(decision(2, { input: { secret: 2 } }));
    await plugin.upload();
    const [first, second] = receiver.events();
    assert.deepEqual(first?.input, {});
    assert.deepEqual(second?.input, { secret: 2 });
  });

  it("drops events when data.system.log.drop is true", async () => {
    const policy = `package system.log

drop if input.input.n == 2

drop if input.path == "health/check"
`;
    const { plugin, receiver } = await setup({}, { modules: { "drop.rego": policy } });
    for (let n = 0; n < 4; n++) plugin.record(decision(n));
    plugin.record(decision(9, { path: "health/check" }));
    await plugin.upload();
    assert.deepEqual(
      receiver.events().map((e) => (e.input as { n: number }).n),
      [0, 1, 3],
    );
  });

  it("reads mask and drop rules at the configured paths", async () => {
    const policy = `package audit

hide contains "/input/n"

skip if input.input.n == 1
`;
    const { plugin, receiver } = await setup(
      { mask_decision: "/audit/hide", drop_decision: "audit/skip" },
      { modules: { "audit.rego": policy } },
    );
    plugin.record(decision(1));
    plugin.record(decision(2));
    await plugin.upload();
    assert.equal(receiver.events().length, 1);
    assert.deepEqual(receiver.events()[0]?.input, {});
    assert.deepEqual(receiver.events()[0]?.erased, ["/input/n"]);
  });

  it("loses the event when the mask policy answers something OPA refuses", async () => {
    const errors: string[] = [];
    const policy = `package system.log

mask contains "/labels/id"
`;
    const { plugin, receiver } = await setup(
      {},
      {
        modules: { "mask.rego": policy },
        log: { error: (m) => errors.push(m), info() {}, debug() {} },
      },
    );
    plugin.record(decision(1));
    await plugin.upload();
    assert.equal(receiver.events().length, 0);
    assert.deepEqual(errors, ["Log event masking failed: mask prefix not allowed: labels."]);
  });

  it("uses the engine serving decisions now", async () => {
    let engine = engineWith();
    const { plugin, receiver } = await setup({}, { engine: () => engine });
    plugin.record(decision(1));
    await plugin.upload();
    engine = engineWith({ "m.rego": 'package system.log\n\nmask contains "/input"\n' });
    plugin.record(decision(2));
    await plugin.upload();
    const [before, after] = receiver.events();
    assert.deepEqual(before?.input, { n: 1 });
    assert.equal("input" in (after ?? {}), false);
    assert.deepEqual(after?.erased, ["/input"]);
  });
});

describe("decision logs plugin: console", () => {
  it("writes each masked event as a sorted JSON line, with or without a service", async () => {
    const lines: string[] = [];
    const config = parseDecisionLogsConfig({ console: true }, []);
    assert.ok(config);
    const engine = engineWith({
      "mask.rego": 'package system.log\n\nmask contains "/input/password"\n',
    });
    const plugin = new DecisionLogsPlugin({
      config,
      engine: () => engine,
      console: (line) => lines.push(line),
    });
    const id = plugin.record(decision(1, { input: { user: "u", password: "p" } }));
    assert.equal(await plugin.stop(), true);
    assert.equal(lines.length, 1);
    assert.match(lines[0] as string, /^\{[^\n]*\}\n$/);
    const line = JSON.parse(lines[0] as string) as Record<string, unknown>;
    assert.deepEqual(Object.keys(line), [...Object.keys(line)].sort());
    assert.equal(line.decision_id, id);
    assert.equal(line.msg, "Decision Log");
    assert.equal(line.level, "info");
    assert.equal(line.type, "openpolicyagent.org/decision_logs");
    assert.deepEqual(line.input, { user: "u" });
    assert.deepEqual(line.erased, ["/input/password"]);
  });
});

describe("decision logs plugin in the server", () => {
  it("logs the decision the client got, under the same id", async () => {
    const engine = engineWith({
      "authz.rego": 'package app\n\nallow if input.user == "alice"\n',
    });
    const receiver = await startLogReceiver();
    cleanups.push(() => receiver.close());
    const config = parseDecisionLogsConfig({ service: "logs" }, ["logs"]);
    assert.ok(config);
    const plugin = new DecisionLogsPlugin({
      config,
      service: { name: "logs", url: receiver.url },
      engine: () => engine,
      timing: NEVER,
    });
    const server = await startPolicyServer(
      {
        engine,
        policies: [],
        bundles: [],
        maxBodyBytes: 1 << 20,
        evalTimeoutMs: 0,
        decisionLogger: plugin,
      },
      "127.0.0.1:0",
    );
    cleanups.push(() => server.close(1000));
    const res = await fetch(`${server.url}/v1/data/app/allow`, {
      method: "POST",
      body: JSON.stringify({ input: { user: "alice" } }),
    });
    const body = (await res.json()) as { result: boolean; decision_id: string };
    assert.equal(body.result, true);
    assert.equal(await plugin.stop(5000), true);
    const [event] = receiver.events();
    assert.equal(event?.decision_id, body.decision_id);
    assert.equal(event?.path, "app/allow");
    assert.deepEqual(event?.input, { user: "alice" });
    assert.equal(event?.result, true);
    assert.match(event?.requested_by as string, /^127\.0\.0\.1:\d+$/);
    assert.ok(Object.keys(event?.metrics as object).length > 0);
  });
});

describe("event timestamps", () => {
  it("are RFC 3339 in UTC with Go's trimmed fraction", () => {
    const t = Date.UTC(2026, 0, 2, 3, 4, 5);
    assert.equal(rfc3339(t), "2026-01-02T03:04:05Z");
    assert.equal(rfc3339(t + 120), "2026-01-02T03:04:05.12Z");
    assert.equal(rfc3339(t + 1.5), "2026-01-02T03:04:05.0015Z");
    assert.equal(rfc3339(t + 999.999), "2026-01-02T03:04:05.999999Z");
  });
});

describe("RateLimiter", () => {
  it("allows a burst of max(1, rate), then rate tokens per second", () => {
    let now = 0;
    const limiter = new RateLimiter(2, () => now);
    assert.deepEqual([limiter.allow(), limiter.allow(), limiter.allow()], [true, true, false]);
    now = 500;
    assert.deepEqual([limiter.allow(), limiter.allow()], [true, false]);
    now = 10_000;
    assert.deepEqual([limiter.allow(), limiter.allow(), limiter.allow()], [true, true, false]);
    const slow = new RateLimiter(0.5, () => now);
    assert.deepEqual([slow.allow(), slow.allow()], [true, false]);
    now += 2000;
    assert.equal(slow.allow(), true);
  });
});
