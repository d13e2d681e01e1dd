/**
 * HTTP throughput: POST /v1/data/limits on `rego run --server` (its default: decisions in
 * the worker pool), on `rego run --server` with `REGO_SERVER_WORKERS=0` (decisions on the
 * main thread) and on a bare node:http server with a constant body, all in child
 * processes, driven by autocannon (32 connections, 10 s each) in the same run. The 10 s
 * are cut into rounds that alternate between the servers, so that load from other jobs on
 * a shared machine hits them alike.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { benchInputs, writeBenchTree } from "./fixture.mjs";

const packageDir = fileURLToPath(new URL("..", import.meta.url));

/** Starts a child process and resolves with the first http:// URL it prints. */
function startChild(args, pattern, env = {}) {
  const child = spawn(process.execPath, args, {
    cwd: packageDir,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let seen = "";
    const onData = (chunk) => {
      seen += chunk.toString();
      const m = pattern.exec(seen);
      if (m) resolve({ child, url: m[1] });
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => reject(new Error(`child exited with ${code}: ${seen}`)));
  });
}

function stop(child) {
  return new Promise((resolve) => {
    child.once("exit", resolve);
    child.kill("SIGTERM");
  });
}

/** Runs autocannon against `url` cycling through request bodies. */
function load(url, bodies, seconds, connections) {
  return new Promise((resolve, reject) => {
    const requests = bodies.map((body) => ({
      method: "POST",
      body,
      headers: { "content-type": "application/json" },
    }));
    autocannon({ url, connections, duration: seconds, requests }, (err, result) =>
      err ? reject(err) : resolve(result),
    );
  });
}

/**
 * CPU time (user + system, ms) a child has used so far, from /proc; undefined elsewhere.
 * Clock ticks are taken as 100 per second, Linux's USER_HZ.
 */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/** Runs one load round and adds the server's CPU time spent during it. */
async function measuredRound(child, url, bodies, seconds, connections) {
  const before = cpuMs(child.pid);
  const result = await load(url, bodies, seconds, connections);
  const after = cpuMs(child.pid);
  result.cpuMs = before === undefined || after === undefined ? undefined : after - before;
  return result;
}

/** Sums autocannon rounds: requests/s over the whole time, mean p50, worst p99. */
function summary(rounds) {
  const seconds = rounds.reduce((n, r) => n + r.duration, 0);
  return {
    requestsPerS: rounds.reduce((n, r) => n + r.requests.total, 0) / seconds,
    p50Ms: rounds.reduce((n, r) => n + r.latency.p50, 0) / rounds.length,
    p99Ms: Math.max(...rounds.map((r) => r.latency.p99)),
    non2xx: rounds.reduce((n, r) => n + r.non2xx, 0),
    errors: rounds.reduce((n, r) => n + r.errors, 0),
    cpuUsPerRequest: rounds.some((r) => r.cpuMs === undefined)
      ? undefined
      : (rounds.reduce((n, r) => n + r.cpuMs, 0) * 1000) /
        rounds.reduce((n, r) => n + r.requests.total, 0),
  };
}

/** Measures both servers; returns their figures and the ratio policy/bare. */
export async function benchHttp({ seconds = 10, connections = 32, rounds = 5 } = {}) {
  const tree = writeBenchTree();
  const bodies = benchInputs(100).map((input) => JSON.stringify({ input }));
  const policy = await startChild(
    ["dist/src/cli/main.js", "run", "--server", "--addr", "127.0.0.1:0", tree],
    /"url":"(http:\/\/[^"]+)"/,
  );
  const inline = await startChild(
    ["dist/src/cli/main.js", "run", "--server", "--addr", "127.0.0.1:0", tree],
    /"url":"(http:\/\/[^"]+)"/,
    { REGO_SERVER_WORKERS: "0" },
  );
  const bare = await startChild(["bench/bare-server.mjs"], /(http:\/\/127\.0\.0\.1:\d+)/);
  try {
    const policyUrl = `${policy.url}/v1/data/limits`;
    const inlineUrl = `${inline.url}/v1/data/limits`;
    const bareUrl = `${bare.url}/v1/data/limits`;
    await load(policyUrl, bodies, 1, connections);
    await load(inlineUrl, bodies, 1, connections);
    await load(bareUrl, bodies, 1, connections);
    const policyRounds = [];
    const inlineRounds = [];
    const bareRounds = [];
    for (let i = 0; i < rounds; i++) {
      policyRounds.push(
        await measuredRound(policy.child, policyUrl, bodies, seconds / rounds, connections),
      );
      inlineRounds.push(
        await measuredRound(inline.child, inlineUrl, bodies, seconds / rounds, connections),
      );
      bareRounds.push(
        await measuredRound(bare.child, bareUrl, bodies, seconds / rounds, connections),
      );
    }
    const p = summary(policyRounds);
    const n = summary(inlineRounds);
    const b = summary(bareRounds);
    return {
      seconds,
      connections,
      rounds,
      policy: p,
      inline: n,
      bare: b,
      ratio: p.requestsPerS / b.requestsPerS,
      inlineRatio: n.requestsPerS / b.requestsPerS,
      // What the throughput ratio would be if both servers were CPU-bound.
      cpuRatio:
        p.cpuUsPerRequest && b.cpuUsPerRequest ? b.cpuUsPerRequest / p.cpuUsPerRequest : undefined,
    };
  } finally {
    await Promise.all([stop(policy.child), stop(inline.child), stop(bare.child)]);
  }
}
