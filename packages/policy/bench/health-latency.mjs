/**
 * `/health` beside a slow decision: a policy whose rule runs until the evaluation limit
 * (REGO_EVAL_TIMEOUT_MS=5000) stops it, so each slow decision takes 5 s. One slow decision
 * is kept running at all times while `/health` is asked again and again, one request at a
 * time; the latencies of those health checks are the figure. Measured for the worker pool
 * (the default) and for `server.workers=0` (evaluation on the main thread: the baseline).
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const packageDir = fileURLToPath(new URL("..", import.meta.url));

const SLOW_POLICY = `package slow

import rego.v1

# Never true: runs until the evaluation time limit cancels it.
forever if {
  some i in numbers.range(1, 100000)
  some j in numbers.range(1, 100000)
  i * j == -1
}
`;

function writeSlowTree() {
  const dir = mkdtempSync(join(tmpdir(), "rego-bench-slow-"));
  mkdirSync(join(dir, "policies"));
  writeFileSync(join(dir, "policies", "slow.rego"), SLOW_POLICY);
  return dir;
}

function startServer(tree, workers) {
  const child = spawn(
    process.execPath,
    ["dist/src/cli/main.js", "run", "--server", "--addr", "127.0.0.1:0", tree],
    {
      cwd: packageDir,
      env: { ...process.env, REGO_EVAL_TIMEOUT_MS: "5000", REGO_SERVER_WORKERS: String(workers) },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  return new Promise((resolve, reject) => {
    let seen = "";
    const onData = (chunk) => {
      seen += chunk.toString();
      const m = /"url":"(http:\/\/[^"]+)"/.exec(seen);
      if (m) resolve({ child, url: m[1] });
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => reject(new Error(`server exited with ${code}: ${seen}`)));
  });
}

function call(url, method, body) {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode));
    });
    req.on("error", reject);
    req.end(body);
  });
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
}

/** Health latencies (ms) while slow decisions run, for one server. */
async function measure(tree, workers, seconds) {
  const server = await startServer(tree, workers);
  let running = true;
  let slowAnswered = 0;
  const slowLoop = (async () => {
    while (running) {
      await call(`${server.url}/v1/data/slow/forever`, "POST", "{}");
      slowAnswered++;
    }
  })();
  // Let the first slow decision start before the health checks.
  await new Promise((r) => setTimeout(r, 200));
  const latencies = [];
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    const t0 = performance.now();
    const status = await call(`${server.url}/health`, "GET");
    if (status !== 200) throw new Error(`/health answered ${status}`);
    latencies.push(performance.now() - t0);
  }
  running = false;
  await slowLoop;
  server.child.kill("SIGTERM");
  latencies.sort((a, b) => a - b);
  return {
    workers,
    checks: latencies.length,
    slowAnswered,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    maxMs: latencies[latencies.length - 1],
  };
}

/** `/health` latency beside a 5 s decision: the pool (default workers) and the main thread. */
export async function benchHealthLatency({ seconds = 6, workers = "" } = {}) {
  const tree = writeSlowTree();
  const pool = await measure(tree, workers, seconds);
  const inline = await measure(tree, 0, seconds);
  return { seconds, pool, inline };
}
