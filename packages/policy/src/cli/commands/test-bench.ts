/**
 * `rego test --bench`: each passing test rule evaluated repeatedly for about `--benchtime`
 * milliseconds, reported as `opa test --bench` prints Go benchmark results:
 * `<name>\t<N>\t<ns> ns/op\t<eval ns> timer_rego_query_eval_ns/op`.
 */
import type { PolicyEngine } from "../../engine.js";

/** One test's benchmark figures. */
export interface BenchFigures {
  /** Evaluations run. */
  n: number;
  /** Wall time of all of them, nanoseconds. */
  totalNs: number;
  /** Time inside evaluation only, nanoseconds per evaluation. */
  evalNsPerOp: number;
}

/** Evaluates `path` again and again for about `targetMs` (at least once). */
export function benchTest(
  engine: PolicyEngine,
  path: (string | number)[],
  targetMs: number,
): BenchFigures {
  const print = () => {};
  const start = process.hrtime.bigint();
  const deadline = start + BigInt(Math.round(targetMs * 1e6));
  let evalNs = 0n;
  let n = 0;
  let now = start;
  while (n === 0 || now < deadline) {
    const t0 = process.hrtime.bigint();
    engine.evalRef(path, { print });
    now = process.hrtime.bigint();
    evalNs += now - t0;
    n++;
  }
  return { n, totalNs: Number(now - start), evalNsPerOp: Number(evalNs) / n };
}

/** A figure as Go's benchmark output pads it: wide for large, more decimals for small. */
function goFigure(x: number, unit: string): string {
  const y = Math.abs(x);
  if (y === 0 || y >= 999.95) return `${x.toFixed(0).padStart(10)} ${unit}`;
  if (y >= 99.995) return `${x.toFixed(1).padStart(12)} ${unit}`;
  if (y >= 9.9995) return `${x.toFixed(2).padStart(13)} ${unit}`;
  if (y >= 0.99995) return `${x.toFixed(3).padStart(14)} ${unit}`;
  return `${x.toFixed(4).padStart(15)} ${unit}`;
}

/** The benchmark line of one test. */
export function benchLine(name: string, f: BenchFigures): string {
  return [
    name,
    String(f.n).padStart(8),
    goFigure(f.totalNs / f.n, "ns/op"),
    goFigure(f.evalNsPerOp, "timer_rego_query_eval_ns/op"),
  ].join("\t");
}

/** The `benchmark_result` of a test in `--format json`. */
export function benchJson(f: BenchFigures): Record<string, unknown> {
  return {
    N: f.n,
    T: f.totalNs,
    ns_per_op: Math.round(f.totalNs / f.n),
    Extra: { "timer_rego_query_eval_ns/op": Math.round(f.evalNsPerOp) },
  };
}
