/**
 * `node bench/numbers.mjs [dist dir]`: evaluation time of number-heavy queries, to compare
 * builds side by side (the number representation: plain integers, floats, kept-text floats).
 * Pass another build's dist folder to time it with the same queries.
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const dist = resolve(process.argv[2] ?? new URL("../dist", import.meta.url).pathname);
const { PolicyEngine } = await import(pathToFileURL(`${dist}/src/engine.js`).href);

const POLICY = `package bench

ints := sum([y | x := numbers.range(1, 20000)[_]; y := x * 3 + 1])

floats := sum([y | x := numbers.range(1, 20000)[_]; y := x * 0.5 + 0.25])

decimals := [y | x := numbers.range(1, 5000)[_]; y := (x * 0.1) - 0.2]

keyed := count({k | x := numbers.range(1, 20000)[_]; k := (x % 100) + 0.5})
`;

const engine = new PolicyEngine();
engine.addModule("bench.rego", POLICY);
engine.compile();

/** Median milliseconds of `runs` evaluations after two warm-ups. */
function time(name, runs = 15) {
  for (let i = 0; i < 2; i++) engine.evalRef(["bench", name], {});
  const ms = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    engine.evalRef(["bench", name], {});
    ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  ms.sort((a, b) => a - b);
  return ms[Math.floor(ms.length / 2)];
}

for (const name of ["ints", "floats", "decimals", "keyed"]) {
  console.log(`${name}: ${time(name).toFixed(2)} ms`);
}
