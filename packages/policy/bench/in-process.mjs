/**
 * In-process decision latency: `engine.evalRef(["limits"], { input })` on the compiled
 * example policy with 1,000 users in data. Reports p50, p99 and decisions per second.
 */

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { PolicyEngine } from "../dist/src/engine.js";
import { fromJSON } from "../dist/src/value/value.js";
import { benchData, benchInputs } from "./fixture.mjs";

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Runs `iterations` timed decisions after a warm-up; latencies in microseconds. */
export function benchInProcess({ iterations = 200_000, warmup = 20_000 } = {}) {
  const engine = new PolicyEngine();
  const policy = fileURLToPath(new URL("../examples/policies/limits.rego", import.meta.url));
  engine.addModule("limits.rego", readFileSync(policy, "utf8"));
  engine.addData([], fromJSON(benchData()));
  engine.compile();
  const inputs = benchInputs().map((i) => fromJSON(i));
  for (let i = 0; i < warmup; i++) engine.evalRef(["limits"], { input: inputs[i % inputs.length] });
  const samples = new Float64Array(iterations);
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) {
    const t0 = process.hrtime.bigint();
    engine.evalRef(["limits"], { input: inputs[i % inputs.length] });
    samples[i] = Number(process.hrtime.bigint() - t0) / 1000;
  }
  const totalS = Number(process.hrtime.bigint() - start) / 1e9;
  const sorted = Array.from(samples).sort((a, b) => a - b);
  return {
    iterations,
    p50Us: percentile(sorted, 50),
    p99Us: percentile(sorted, 99),
    decisionsPerS: iterations / totalS,
  };
}
