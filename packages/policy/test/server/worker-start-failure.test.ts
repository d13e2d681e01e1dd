/**
 * Evaluation workers that cannot start, made to fail the way the launcher's preload once did
 * (`--import` of a module that throws in worker threads): the pool replaces them with growing
 * delays, a bounded number of times, then evaluates on the main thread and logs the cause
 * once; `/health` answers 500 while no decision can be evaluated. Restarts are counted (and,
 * in the first suite, held by the test until it lets them go); nothing is timed.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildEngine } from "../../src/loader/build-engine.js";
import { createRequestListener, startPolicyServer } from "../../src/server/app.js";
import type { ValueJob } from "../../src/server/eval-job.js";
import { EvalPool } from "../../src/server/eval-pool.js";
import { engineState, startEvaluations } from "../../src/server/eval-pool-setup.js";
import type { Evaluations } from "../../src/server/evaluations.js";
import { START_FAILURES_BEFORE_FALLBACK } from "../../src/server/worker-restarts.js";
import { PolicyStore } from "../../src/store/policy-store.js";
import { EXAMPLES_DIR } from "../fixtures.js";
import { policyDir } from "./policy-dir.js";

const POLICY = `package p

import rego.v1

default allow := false

allow if input.user in data.users
`;

/**
 * A preload that throws in worker threads only (the main thread starts as usual), after
 * adding one line to `countFile`: one line per worker start attempt.
 */
function failingPreload(dir: string, countFile: string): string[] {
  const file = join(dir, "fail-in-workers.mjs");
  writeFileSync(
    file,
    `import { appendFileSync } from "node:fs";
import { isMainThread } from "node:worker_threads";
if (!isMainThread) {
  appendFileSync(${JSON.stringify(countFile)}, "start\\n");
  throw new Error("preload refused: no launcher link in a worker thread");
}
`,
  );
  writeFileSync(countFile, "");
  return ["--import", pathToFileURL(file).href];
}

function lineCount(file: string): number {
  return readFileSync(file, "utf8").split("\n").filter(Boolean).length;
}

/** `POST /`-style job for `data.p.allow`: the body is the input itself. */
const allowJob = (user: string): ValueJob => ({
  kind: "value",
  path: ["p", "allow"],
  body: JSON.stringify({ user }),
  yaml: false,
  undefinedStyle: "default",
  limits: { maxInputDepth: 100, strict: false },
});

describe("evaluation workers that cannot start (restarts held by the test)", () => {
  const files = policyDir({ "p.rego": POLICY, "data.json": '{"users": ["alice"]}' });
  const countFile = join(files.dir, "starts.txt");
  const execArgv = failingPreload(files.dir, countFile);
  /** Replacements the pool asked to start later, in order, with the delay it asked for. */
  const held: { start: () => void; delayMs: number }[] = [];
  let heldGrew: () => void = () => {};
  const fallbacks: string[] = [];
  const lost: string[] = [];
  let evaluations: Evaluations;
  let server: Server;
  let url: string;

  /** Settles once the pool has asked for `n` delayed restarts in all. */
  const heldCount = (n: number) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (held.length >= n) resolve();
        else heldGrew = check;
      };
      check();
    });

  before(async () => {
    const { engine, files: loaded } = buildEngine([files.dir]);
    const store = new PolicyStore(engine, loaded.modules, loaded.bundles);
    evaluations = startEvaluations({
      workers: 1,
      store,
      current: () => store.engine,
      evalTimeoutMs: 0,
      onWorkerLost: (reason) => lost.push(reason),
      onFallback: (reason) => fallbacks.push(reason),
      workerHooks: {
        execArgv,
        schedule: (start, delayMs) => {
          held.push({ start, delayMs });
          heldGrew();
        },
      },
    });
    const listener = createRequestListener({
      engine,
      store,
      evaluations,
      maxBodyBytes: 1 << 20,
      evalTimeoutMs: 0,
    });
    server = createServer(listener);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await evaluations.close();
    files.remove();
  });

  it("answers /health 500 until it falls back, then answers decisions on the main thread", async () => {
    // The first failed worker is replaced at once; the second one's replacement waits.
    await heldCount(1);
    assert.equal(lineCount(countFile), 2);
    assert.equal(evaluations.ready(), false);
    for (const path of ["/health", "/health?plugins", "/health/live"]) {
      const health = await fetch(`${url}${path}`);
      assert.equal(health.status, 500, path);
      assert.deepEqual(await health.json(), { error: "unable to perform evaluation" });
    }
    // A decision asked now waits for a worker (or the fallback) instead of failing.
    const waiting = evaluations.run(allowJob("alice"));
    for (let n = 1; n <= START_FAILURES_BEFORE_FALLBACK - 2; n++) {
      await heldCount(n);
      assert.equal(fallbacks.length, 0);
      held[n - 1]?.start();
    }
    assert.equal((await waiting).resultText, "true");
    assert.equal(lineCount(countFile), START_FAILURES_BEFORE_FALLBACK);
    assert.deepEqual(
      held.map((h) => h.delayMs),
      [100, 200, 400],
    );
    assert.equal(fallbacks.length, 1);
    assert.match(fallbacks[0] ?? "", /preload refused: no launcher link in a worker thread/);
    assert.match(fallbacks[0] ?? "", /main thread/);
    assert.deepEqual(lost, [], "workers that never started are not reported one by one");
    assert.equal(evaluations.ready(), true);

    const health = await fetch(`${url}/health?plugins`);
    assert.equal(health.status, 200);
    assert.deepEqual(await health.json(), {});
    const denied = await fetch(`${url}/v1/data/p/allow`, {
      method: "POST",
      body: JSON.stringify({ input: { user: "bob" } }),
    });
    assert.deepEqual(await denied.json(), { result: false });
    // Writes reach the main thread's evaluations.
    const put = await fetch(`${url}/v1/data/users`, { method: "PUT", body: '["bob"]' });
    assert.equal(put.status, 204);
    const allowed = await fetch(`${url}/v1/data/p/allow`, {
      method: "POST",
      body: JSON.stringify({ input: { user: "bob" } }),
    });
    assert.deepEqual(await allowed.json(), { result: true });
    // No worker was started again, and no restart is pending.
    assert.equal(lineCount(countFile), START_FAILURES_BEFORE_FALLBACK);
    assert.equal(held.length, START_FAILURES_BEFORE_FALLBACK - 2);
    assert.equal(fallbacks.length, 1);
  });
});

describe("evaluation workers that cannot start (the server's own timers)", () => {
  const files = policyDir({ "p.rego": POLICY, "data.json": '{"users": ["alice"]}' });
  const countFile = join(files.dir, "starts.txt");
  const execArgv = failingPreload(files.dir, countFile);
  after(() => files.remove());

  it("starts once the main thread took over, with one log line naming the cause", async () => {
    const { engine, files: loaded } = buildEngine([files.dir]);
    const store = new PolicyStore(engine, loaded.modules, loaded.bundles);
    const fallbacks: string[] = [];
    const evaluations = startEvaluations({
      workers: 3,
      store,
      current: () => store.engine,
      evalTimeoutMs: 0,
      onFallback: (reason) => fallbacks.push(reason),
      workerHooks: { execArgv },
    });
    const running = await startPolicyServer(
      { engine, store, evaluations, maxBodyBytes: 1 << 20, evalTimeoutMs: 0 },
      "127.0.0.1:0",
    );
    try {
      assert.equal((await fetch(`${running.url}/health`)).status, 200);
      const res = await fetch(`${running.url}/v1/data/p/allow`, {
        method: "POST",
        body: JSON.stringify({ input: { user: "alice" } }),
      });
      assert.deepEqual(await res.json(), { result: true });
      assert.equal(fallbacks.length, 1);
      assert.match(fallbacks[0] ?? "", /preload refused/);
      // Three workers start at once, so up to two more than the failures that count.
      const starts = lineCount(countFile);
      assert.ok(
        starts >= START_FAILURES_BEFORE_FALLBACK && starts <= START_FAILURES_BEFORE_FALLBACK + 2,
        `${starts} worker starts`,
      );
    } finally {
      await running.close(1000);
    }
  });
});

describe("evaluation workers that cannot build their first engine", () => {
  const files = policyDir({ "p.rego": POLICY, "data.json": '{"users": ["alice"]}' });
  after(() => files.remove());

  it("count as start failures: the pool falls back instead of starting forever", async () => {
    const { engine } = buildEngine([files.dir]);
    const fallbacks: string[] = [];
    let states = 0;
    const pool = new EvalPool({
      size: 1,
      // A state the workers cannot compile (the server never sends one: this is a bug's case).
      state: () => {
        states++;
        return {
          ...engineState(engine),
          modules: [{ file: "bad.rego", source: "package", v0: false }],
        };
      },
      mainThread: () => engine,
      evalTimeoutMs: 0,
      onFallback: (reason) => fallbacks.push(reason),
    });
    try {
      await pool.started();
      assert.equal(pool.onMainThread, true);
      assert.equal((await pool.run(allowJob("alice"))).resultText, "true");
      assert.equal(states, START_FAILURES_BEFORE_FALLBACK);
      assert.equal(fallbacks.length, 1);
      assert.match(fallbacks[0] ?? "", /cannot start \(5 tries in a row\): .*bad\.rego/);
    } finally {
      await pool.close();
    }
  });
});

describe("rego run --server under a preload that throws in worker threads", () => {
  const files = policyDir({});
  const countFile = join(files.dir, "starts.txt");
  const execArgv = failingPreload(files.dir, countFile);
  after(() => files.remove());

  it("serves decisions from the main thread and logs the cause once", {
    timeout: 60_000,
  }, async () => {
    const bin = fileURLToPath(new URL("../../../bin/rego.js", import.meta.url));
    const child = spawn(
      process.execPath,
      [...execArgv, bin, "run", "--server", "--addr", "127.0.0.1:0", EXAMPLES_DIR],
      { env: { ...process.env, REGO_SERVER_WORKERS: "2" }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stderr = "";
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr.setEncoding("utf8");
      child.stderr.on("data", (text: string) => {
        stderr += text;
        const m = /"url":"(http:[^"]+)"/.exec(stderr);
        if (m?.[1]) resolve(m[1]);
      });
      void exited.then((code) => reject(new Error(`rego run exited ${code}: ${stderr}`)));
    });
    try {
      assert.equal((await fetch(`${url}/health`)).status, 200);
      const res = await fetch(`${url}/v1/data/limits`, {
        method: "POST",
        body: JSON.stringify({ input: { name: "alice" } }),
      });
      assert.equal(res.status, 200);
      assert.deepEqual(await res.json(), {
        result: { allow: true, role: "admin", limit: 10000.5 },
      });
    } finally {
      child.kill("SIGTERM");
      await exited;
    }
    const errors = stderr.split("\n").filter((line) => line.includes('"level":"error"'));
    assert.equal(errors.length, 1, stderr);
    assert.match(errors[0] ?? "", /cannot start/);
    assert.match(errors[0] ?? "", /preload refused/);
    const starts = lineCount(countFile);
    assert.ok(starts <= START_FAILURES_BEFORE_FALLBACK + 1, `${starts} worker starts`);
  });
});
