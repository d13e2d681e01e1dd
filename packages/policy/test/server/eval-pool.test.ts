/**
 * Decisions evaluated by worker threads: a slow decision leaves /health and other decisions
 * answering, writes reach the workers in order (a decision after a write sees it; none sees
 * half of one), a worker that dies is replaced, and `workers: 0` still evaluates on the main
 * thread. Ordering is asserted, never timings.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { buildEngine } from "../../src/loader/build-engine.js";
import type { ValueJob } from "../../src/server/eval-job.js";
import { EvalPool } from "../../src/server/eval-pool.js";
import { engineState } from "../../src/server/eval-pool-setup.js";
import { policyDir } from "./policy-dir.js";
import { type Harness, startHarness } from "./server-harness.js";

/** A rule that never succeeds and runs until the evaluation time limit stops it. */
const SLOW = `package slow

import rego.v1

forever if {
  some i in numbers.range(1, 100000)
  some j in numbers.range(1, 100000)
  i * j == -1
}

echo := input.x
`;

const PAIR = `package c

pair := [data.counter.a, data.counter.b]
`;

interface ErrorBody {
  code: string;
  message: string;
  errors?: { code: string; message: string }[];
}

describe("evaluation in worker threads", () => {
  const files = policyDir({
    "slow.rego": SLOW,
    "c.rego": PAIR,
    "data.json": JSON.stringify({ counter: { a: 0, b: 0 } }),
  });
  let h: Harness;
  before(async () => {
    h = await startHarness([files.dir], { workers: 2, evalTimeoutMs: 4000 });
  });
  after(async () => {
    await h.server.close(1000);
    files.remove();
  });

  it("answers /health and a fast decision while a slow decision is still running", {
    timeout: 60_000,
  }, async () => {
    // Both workers hold the policies before the slow decision takes one of them.
    for (let i = 0; i < 4; i++)
      assert.equal((await h.post("/v1/data/slow/echo", "{}")).status, 200);
    let slowDone = false;
    const slow = h.post("/v1/data/slow/forever", "{}").then(async (res) => {
      slowDone = true;
      return { status: res.status, body: (await res.json()) as ErrorBody };
    });
    const health = await h.get("/health");
    assert.equal(health.status, 200);
    assert.deepEqual(await health.json(), {});
    const fast = await h.post("/v1/data/slow/echo", JSON.stringify({ input: { x: 7 } }));
    assert.deepEqual(await fast.json(), { result: 7 });
    const bare = await h.post("/", "{}");
    assert.equal(bare.status, 404);
    assert.equal(slowDone, false, "the slow decision must still be running");
    const answered = await slow;
    assert.equal(answered.status, 500);
    assert.equal(answered.body.code, "internal_error");
    assert.equal(answered.body.errors?.[0]?.code, "eval_cancel_error");
    // The worker that ran it serves again.
    for (let i = 0; i < 4; i++) {
      const res = await h.post("/v1/data/slow/echo", JSON.stringify({ input: { x: i } }));
      assert.deepEqual(await res.json(), { result: i });
    }
  });

  it("answers a decision sent after a write from the written state", async () => {
    for (let k = 1; k <= 20; k++) {
      const put = await h.send("PUT", "/v1/data/counter", JSON.stringify({ a: k, b: -k }));
      assert.equal(put.status, 204);
      const res = await h.get("/v1/data/c/pair");
      assert.deepEqual(await res.json(), { result: [k, -k] });
    }
  });

  it("never answers from half of a write while writes and decisions interleave", async () => {
    const pending: Promise<unknown>[] = [];
    const answers: unknown[] = [];
    for (let k = 1; k <= 30; k++) {
      pending.push(
        h.send(
          "PATCH",
          "/v1/data/counter",
          JSON.stringify([
            { op: "replace", path: "a", value: k },
            { op: "replace", path: "b", value: k },
          ]),
        ),
      );
      for (let j = 0; j < 4; j++) {
        pending.push(
          h
            .post("/v1/data/c/pair", "{}")
            .then((r) => r.json())
            .then((b) => answers.push(b)),
        );
      }
    }
    await Promise.all(pending);
    assert.equal(answers.length, 120);
    for (const answer of answers) {
      const [a, b] = (answer as { result: [number, number] }).result;
      assert.equal(a, b, `torn read: ${JSON.stringify(answer)}`);
    }
    assert.deepEqual(await (await h.get("/v1/data/c/pair")).json(), { result: [30, 30] });
  });

  it("sends a policy change to every worker", async () => {
    const put = await h.send("PUT", "/v1/policies/extra.rego", "package extra\n\nv := 41 + 1\n");
    assert.equal(put.status, 200);
    for (let i = 0; i < 4; i++) {
      assert.deepEqual(await (await h.get("/v1/data/extra/v")).json(), { result: 42 });
    }
    assert.equal((await h.send("DELETE", "/v1/policies/extra.rego")).status, 200);
    assert.deepEqual(await (await h.get("/v1/data/extra/v")).json(), {});
  });

  it("answers request errors found in the worker as before (400 with OPA's message)", async () => {
    const res = await h.post("/v1/data/slow/echo", "{not json");
    assert.equal(res.status, 400);
    const body = (await res.json()) as ErrorBody;
    assert.equal(body.code, "invalid_parameter");
    assert.match(body.message, /^body contains malformed input document: /);
    const query = await h.get("/v1/query?q=x%20:=");
    assert.equal(query.status, 400);
    assert.equal(((await query.json()) as ErrorBody).errors?.[0]?.code, "rego_parse_error");
  });
});

describe("data writes sent to workers", () => {
  const files = policyDir({
    "c.rego": PAIR,
    "data.json": JSON.stringify({ counter: { a: 0, b: 0 }, list: [1, 2], deep: { x: { y: 1 } } }),
  });
  let pool: Harness;
  let main: Harness;
  before(async () => {
    pool = await startHarness([files.dir], { workers: 2 });
    main = await startHarness([files.dir], { workers: 0 });
  });
  after(async () => {
    await pool.server.close(1000);
    await main.server.close(1000);
    files.remove();
  });

  const writes: [string, string, string?][] = [
    ["PUT", "/v1/data/counter/a", "5"],
    ["PUT", "/v1/data/new/nested/doc", '{"k": [1, {"z": 0.10000000000000000001}]}'],
    ["PATCH", "/v1/data/list", '[{"op": "add", "path": "-", "value": 3}]'],
    ["PUT", "/v1/data/list/0", '"first"'],
    ["DELETE", "/v1/data/deep/x/y"],
    [
      "PATCH",
      "/v1/data",
      '[{"op": "remove", "path": "new"}, {"op": "add", "path": "n", "value": 1}]',
    ],
    ["PUT", "/v1/data/deep", '"now a string"'],
    ["PUT", "/v1/data/deep/again", "{}"],
    ["DELETE", "/v1/data/counter"],
    ["PUT", "/v1/data", '{"counter": {"a": 9, "b": 9}, "z": [[], {}]}'],
  ];

  it("leaves every worker with the data the main thread has after each write", async () => {
    for (const [method, path, body] of writes) {
      const a = await pool.send(method, path, body);
      const b = await main.send(method, path, body);
      assert.equal(a.status, b.status, `${method} ${path}`);
      const expected = await (await main.get("/v1/data")).text();
      // Concurrent reads spread over both workers.
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => pool.get("/v1/data").then((r) => r.text())),
      );
      for (const answer of answers) assert.equal(answer, expected, `after ${method} ${path}`);
    }
  });
});

describe("a worker that dies", () => {
  const files = policyDir({
    "p.rego": `package p

big := count([[x, y] | some x in numbers.range(1, 5000); some y in numbers.range(1, 5000)])

small := 1 + 1
`,
  });
  let pool: EvalPool;
  const lost: string[] = [];
  before(() => {
    const { engine } = buildEngine([files.dir]);
    pool = new EvalPool({
      size: 1,
      state: () => engineState(engine),
      mainThread: () => engine,
      evalTimeoutMs: 0,
      // Small enough that the big comprehension cannot fit: the worker runs out of memory.
      resourceLimits: { maxOldGenerationSizeMb: 24, maxYoungGenerationSizeMb: 8 },
      onWorkerLost: (reason) => lost.push(reason),
    });
  });
  after(async () => {
    await pool.close();
    files.remove();
  });

  const limits = { maxInputDepth: 100, strict: false, maxCollectionSize: 100_000_000 };
  /** `POST /`-style job for `data.p.<rule>`. */
  const valueJob = (rule: string): ValueJob => ({
    kind: "value",
    path: ["p", rule],
    body: "",
    yaml: false,
    undefinedStyle: "default",
    limits,
  });

  it("fails its job with internal_error and is replaced by a worker that answers", async () => {
    const small = await pool.run(valueJob("small"));
    assert.equal(small.resultText, "2");
    await assert.rejects(pool.run(valueJob("big")), (e: Error & { code?: string }) => {
      assert.equal(e.code, "internal_error");
      assert.match(e.message, /evaluation worker/);
      return true;
    });
    assert.equal(lost.length, 1);
    assert.equal(pool.size, 1);
    const again = await pool.run(valueJob("small"));
    assert.equal(again.resultText, "2");
    assert.ok(pool.ready());
    assert.equal(pool.onMainThread, false, "one crash is no reason to leave the workers");
  });

  it("is replaced when its job runs past the time limit without stopping", {
    timeout: 60_000,
  }, async () => {
    const stuck = new EvalPool({
      size: 1,
      state: () => engineState(buildEngine([files.dir]).engine),
      mainThread: () => buildEngine([files.dir]).engine,
      // The jobs below carry no limit of their own: only the watchdog can stop them.
      evalTimeoutMs: 200,
      watchdogGraceMs: 100,
      onWorkerLost: (reason) => lost.push(reason),
    });
    const before = lost.length;
    try {
      const endless = stuck.run({
        kind: "query",
        query:
          "some i in numbers.range(1, 100000); some j in numbers.range(1, 100000); i * j == -1",
        limits: { maxInputDepth: 100, strict: false },
        insight: { timed: false, instrument: false, prettyExplain: false },
      });
      const behind = stuck.run({
        kind: "value",
        path: ["p", "small"],
        body: "",
        yaml: false,
        undefinedStyle: "default",
        limits,
      });
      await assert.rejects(endless, (e: Error & { code?: string }) => {
        assert.equal(e.code, "eval_cancel_error");
        return true;
      });
      assert.equal((await behind).resultText, "2");
      assert.equal(lost.length, before + 1);
      assert.match(lost[before] ?? "", /time limit/);
    } finally {
      await stuck.close();
    }
  });

  it("refuses jobs once closed", async () => {
    const closed = new EvalPool({
      size: 1,
      state: () => engineState(buildEngine([files.dir]).engine),
      mainThread: () => buildEngine([files.dir]).engine,
      evalTimeoutMs: 0,
    });
    await closed.close();
    assert.equal(closed.ready(), false);
    await assert.rejects(closed.run({ kind: "health", path: ["x"] }), /shutting down/);
  });
});

describe("evaluation on the main thread (workers: 0)", () => {
  const files = policyDir({
    "c.rego": PAIR,
    "data.json": JSON.stringify({ counter: { a: 1, b: 2 } }),
  });
  let h: Harness;
  before(async () => {
    h = await startHarness([files.dir], { workers: 0 });
  });
  after(async () => {
    await h.server.close(1000);
    files.remove();
  });

  it("answers decisions and sees writes", async () => {
    assert.deepEqual(await (await h.get("/v1/data/c/pair")).json(), { result: [1, 2] });
    await h.send("PUT", "/v1/data/counter/a", "5");
    assert.deepEqual(await (await h.get("/v1/data/c/pair")).json(), { result: [5, 2] });
    assert.equal((await h.get("/health")).status, 200);
  });
});
