/**
 * Cost of the network-builtin machinery on the decision path: `evalRef` against
 * `evalRefAsync` on the example policy (no network builtin: the asynchronous form must cost
 * what the synchronous one does), optionally an older build's `evalRef` as the baseline, and
 * a policy whose decision reads an `http.send` answer kept in the inter-query cache.
 * Variants run interleaved, five rounds each; the median decisions/s is reported.
 *
 *   node bench/network-builtins.mjs [--baseline <package dir of an older build>]
 */

import { readFileSync } from "node:fs";
import http from "node:http";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { PolicyEngine } from "../dist/src/engine.js";
import { fromJSON } from "../dist/src/value/value.js";
import { benchData, benchInputs } from "./fixture.mjs";

const ROUNDS = 5;
const PER_ROUND = 40_000;

function limitsEngine(Engine, fromJSON) {
  const engine = new Engine();
  const policy = fileURLToPath(new URL("../examples/policies/limits.rego", import.meta.url));
  engine.addModule("limits.rego", readFileSync(policy, "utf8"));
  engine.addData([], fromJSON(benchData()));
  engine.compile();
  return engine;
}

async function main() {
  const at = process.argv.indexOf("--baseline");
  const baselineDir = at > 0 ? process.argv[at + 1] : undefined;
  const inputs = benchInputs().map((i) => fromJSON(i));
  const server = http.createServer((_req, res) => {
    res.setHeader("Content-Type", "application/json");
    res.end('{"enabled": true}');
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${server.address().port}/flags`;
  const cached = new PolicyEngine();
  cached.addModule(
    "flags.rego",
    `package flags
enabled := http.send({"method": "GET", "url": "${url}", "force_cache": true, "force_cache_duration_seconds": 3600}).body.enabled
allow if { enabled; input.user != "" }
`,
  );
  cached.compile();

  const current = limitsEngine(PolicyEngine, fromJSON);
  const variants = [
    [
      "evalRef (this build)",
      async (i) => current.evalRef(["limits"], { input: inputs[i % inputs.length] }),
    ],
    [
      "evalRefAsync, no network builtin",
      (i) => current.evalRefAsync(["limits"], { input: inputs[i % inputs.length] }),
    ],
    [
      "evalRefAsync, http.send from the inter-query cache",
      (i) => cached.evalRefAsync(["flags", "allow"], { input: inputs[i % inputs.length] }),
    ],
  ];
  if (baselineDir) {
    const dist = (f) => import(pathToFileURL(join(baselineDir, "dist/src", f)).href);
    const { PolicyEngine: BaseEngine } = await dist("engine.js");
    const { fromJSON: baseFromJSON } = await dist("value/value.js");
    // The older build's own values: classes differ between builds.
    const baseInputs = benchInputs().map((i) => baseFromJSON(i));
    const base = limitsEngine(BaseEngine, baseFromJSON);
    variants.unshift([
      "evalRef (baseline build)",
      async (i) => base.evalRef(["limits"], { input: baseInputs[i % baseInputs.length] }),
    ]);
  }
  const rates = new Map(variants.map(([name]) => [name, []]));
  for (let round = 0; round <= ROUNDS; round++) {
    for (const [name, run] of variants) {
      const start = process.hrtime.bigint();
      for (let i = 0; i < PER_ROUND; i++) await run(i);
      const s = Number(process.hrtime.bigint() - start) / 1e9;
      // Round 0 warms up.
      if (round > 0) rates.get(name).push(PER_ROUND / s);
    }
  }
  server.close();
  for (const [name, r] of rates) {
    r.sort((a, b) => a - b);
    console.log(
      `${name}: ${Math.round(r[Math.floor(r.length / 2)])} decisions/s (median of ${ROUNDS})`,
    );
  }
}

await main();
