/**
 * `npm run bench -w @quintet/policy`: in-process decision latency, HTTP throughput beside a
 * bare node:http baseline, and the compliance suite's wall time. Prints the figures and
 * writes them to BENCHMARKS.md with the machine and date. Needs a build (`tsc -b`).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { fileURLToPath } from "node:url";
import { benchCompliance } from "./compliance-time.mjs";
import { benchHealthLatency } from "./health-latency.mjs";
import { benchHttp } from "./http.mjs";
import { benchInProcess } from "./in-process.mjs";

const fmt = (n, digits = 1) =>
  n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const verdict = (ok) => (ok ? "met" : "**not met**");

const machine = `${cpus()[0]?.model ?? "unknown CPU"}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}/${process.arch}`;
const date = new Date().toISOString();
const loadAtStart = loadavg()[0] ?? 0;

console.log(`machine: ${machine}`);
const inProc = benchInProcess();
console.log(
  `in-process: p50 ${fmt(inProc.p50Us, 2)} µs, p99 ${fmt(inProc.p99Us, 2)} µs, ${fmt(inProc.decisionsPerS, 0)} decisions/s`,
);
const http = await benchHttp();
console.log(
  `http policy: ${fmt(http.policy.requestsPerS, 0)} req/s (p50 ${http.policy.p50Ms} ms, p99 ${http.policy.p99Ms} ms, non-2xx ${http.policy.non2xx}, errors ${http.policy.errors})`,
);
console.log(
  `http policy, workers=0: ${fmt(http.inline.requestsPerS, 0)} req/s (p50 ${http.inline.p50Ms} ms, p99 ${http.inline.p99Ms} ms)`,
);
console.log(
  `http bare:   ${fmt(http.bare.requestsPerS, 0)} req/s (p50 ${http.bare.p50Ms} ms, p99 ${http.bare.p99Ms} ms)`,
);
console.log(
  `http ratio policy/bare: ${fmt(http.ratio, 2)} (workers=0: ${fmt(http.inlineRatio, 2)})`,
);
const cpuText = (s) =>
  s.cpuUsPerRequest === undefined ? "n/a" : `${fmt(s.cpuUsPerRequest, 1)} µs`;
console.log(
  `server CPU per request: policy ${cpuText(http.policy)}, workers=0 ${cpuText(http.inline)}, bare ${cpuText(http.bare)}`,
);
const health = await benchHealthLatency();
const healthText = (h) =>
  `p50 ${fmt(h.p50Ms, 1)} ms, p99 ${fmt(h.p99Ms, 1)} ms, max ${fmt(h.maxMs, 1)} ms (${h.checks} checks)`;
console.log(`/health beside a 5 s decision, pool: ${healthText(health.pool)}`);
console.log(`/health beside a 5 s decision, workers=0: ${healthText(health.inline)}`);
const suite = benchCompliance();
if (suite)
  console.log(
    `compliance suite: ${fmt(suite.wallS, 2)} s wall (${suite.passed} passed, ${suite.failed} failed)`,
  );
else console.log("compliance suite: skipped (../shared/opa-compliance not found)");

const loadAtEnd = loadavg()[0] ?? 0;
const report = `# Benchmarks (component B, policy engine and server)

Produced by \`npm run bench -w @quintet/policy\` (after \`npx tsc -b packages/policy\`); every
figure below comes from one run of that script. Re-run it to refresh this file.

- Date: ${date}
- Machine: ${machine}
- Note: a shared development machine; other jobs may have been running, so treat the figures as indicative.
- Load average (1 min) when the run started and ended: ${fmt(loadAtStart, 2)} and ${fmt(loadAtEnd, 2)} (on ${cpus().length} cores; above ${cpus().length} other jobs were competing for the CPU).

## 1. In-process decision latency

\`engine.evalRef(["limits"], { input })\` on the example \`limits\` policy with 1,000 users in
\`data.user_roles\` (inputs cycle through known users, one in ten unknown). ${inProc.iterations.toLocaleString("en-US")} timed
decisions after a warm-up.

| p50 | p99 | decisions/s | goal (p50 <= 20 µs) |
|---:|---:|---:|---|
| ${fmt(inProc.p50Us, 2)} µs | ${fmt(inProc.p99Us, 2)} µs | ${fmt(inProc.decisionsPerS, 0)} | ${verdict(inProc.p50Us <= 20)} |

## 2. HTTP throughput beside a bare node:http server

\`POST /v1/data/limits\` with \`{"input": {"name": ...}}\` bodies, autocannon, ${http.connections} connections,
${http.seconds} s per server cut into ${http.rounds} rounds that alternate between the three servers (so that load
from other jobs hits them alike); each server in its own process; one run.
The baseline is a bare \`node:http\` server that reads the body and returns a constant JSON body.

| server | requests/s | p50 latency | p99 latency | non-2xx | server CPU per request |
|---|---:|---:|---:|---:|---:|
| rego run --server (worker pool, the default) | ${fmt(http.policy.requestsPerS, 0)} | ${fmt(http.policy.p50Ms, 1)} ms | ${http.policy.p99Ms} ms | ${http.policy.non2xx} | ${cpuText(http.policy)} |
| rego run --server, REGO_SERVER_WORKERS=0 | ${fmt(http.inline.requestsPerS, 0)} | ${fmt(http.inline.p50Ms, 1)} ms | ${http.inline.p99Ms} ms | ${http.inline.non2xx} | ${cpuText(http.inline)} |
| bare node:http | ${fmt(http.bare.requestsPerS, 0)} | ${fmt(http.bare.p50Ms, 1)} ms | ${http.bare.p99Ms} ms | ${http.bare.non2xx} | ${cpuText(http.bare)} |

Ratio policy/bare (requests/s): **${fmt(http.ratio, 2)}** (goal >= 0.7: ${verdict(http.ratio >= 0.7)});
with decisions on the main thread (REGO_SERVER_WORKERS=0): ${fmt(http.inlineRatio, 2)}.
The server's CPU per request counts all its threads (the workers' evaluations included).
One run only: on this shared 2-core machine the ratio moves by a few hundredths from run to
run (the client, autocannon, shares the two cores with both servers), so compare runs
taken close together.
${
  http.cpuRatio === undefined
    ? ""
    : `
On a loaded machine throughput swings with other jobs; the servers' own CPU time per request
(from /proc, same rounds) is steadier. Its ratio, bare CPU/request ÷ policy CPU/request, is
**${fmt(http.cpuRatio, 2)}**: the throughput ratio the policy server would reach if both were CPU-bound.
`
}

## 3. \`/health\` beside a slow decision

A policy rule that runs until the evaluation limit (REGO_EVAL_TIMEOUT_MS=5000) cancels it:
one such 5 s decision is kept running at all times while \`GET /health\` is asked one request
after another for ${health.seconds} s. Same run, same policy, two servers:

| server | health checks | p50 | p99 | max | goal (p99 < 50 ms) |
|---|---:|---:|---:|---:|---|
| worker pool (the default) | ${health.pool.checks} | ${fmt(health.pool.p50Ms, 1)} ms | ${fmt(health.pool.p99Ms, 1)} ms | ${fmt(health.pool.maxMs, 1)} ms | ${verdict(health.pool.p99Ms < 50)} |
| REGO_SERVER_WORKERS=0 | ${health.inline.checks} | ${fmt(health.inline.p50Ms, 1)} ms | ${fmt(health.inline.p99Ms, 1)} ms | ${fmt(health.inline.maxMs, 1)} ms | ${verdict(health.inline.p99Ms < 50)} |

## 4. Compliance suite wall time

${
  suite
    ? `The whole OPA v1 compliance suite (2,067 cases) through the package's runner, as a child process:
**${fmt(suite.wallS, 2)} s** wall (${suite.passed} passed, ${suite.failed} failed; goal <= 20 s: ${verdict(suite.wallS <= 20)}).`
    : "Skipped: ../shared/opa-compliance was not found."
}
`;
const target = fileURLToPath(new URL("../BENCHMARKS.md", import.meta.url));
// Sections written by hand (a heading saying so) are kept below the generated ones.
let kept = "";
try {
  const previous = readFileSync(target, "utf8");
  const at = previous.search(/^## .*written by hand/m);
  if (at >= 0) kept = `\n${previous.slice(at)}`;
} catch {
  // No previous file.
}
writeFileSync(target, report + kept);
console.log("wrote BENCHMARKS.md");
