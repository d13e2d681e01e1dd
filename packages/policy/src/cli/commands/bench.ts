/**
 * `rego bench <query>`: evaluates a query repeatedly for about a second (like Go's testing
 * benchmarks behind `opa bench`) and prints samples, ns/op and evaluation-time percentiles.
 */
import { readFileSync } from "node:fs";
import type { PolicyEngine } from "../../engine.js";
import { buildEngine } from "../../loader/build-engine.js";
import { parseDataText } from "../../loader/data-document.js";
import type { Value } from "../../value/value.js";
import type { Command, PolicyIo } from "../cli-io.js";
import { describeFailure } from "../error-report.js";
import { parseFlags, parseOrReportUsage, requirePrettyOrJson, UsageError } from "../parse-flags.js";

const USAGE = `Usage: rego bench [flags] <query>

Flags:
  -d, --data <path>        policy or data file or directory (repeatable)
  -i, --input <file>       input document (JSON or YAML)
      --count <n>          number of benchmark runs (default 1)
      --benchtime <ms>     target duration of one run in milliseconds (default 1000)
      --fail=<bool>        fail when the query is undefined (default true)
  -f, --format <fmt>       pretty (default) or json
      --v0-compatible      parse policies as Rego v0
`;

const OPTIONS = {
  data: { type: "string", short: "d", multiple: true },
  input: { type: "string", short: "i" },
  count: { type: "string", default: "1" },
  benchtime: { type: "string", default: "1000" },
  fail: { type: "string", default: "true" },
  format: { type: "string", short: "f", default: "pretty" },
  "v0-compatible": { type: "boolean" },
} as const;

/** One benchmark run's figures. */
interface BenchResult {
  samples: number;
  "ns/op": number;
  [percentile: string]: number;
}

function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}

function benchOnce(
  engine: PolicyEngine,
  query: string,
  input: Value | undefined,
  targetMs: number,
): BenchResult {
  const times: number[] = [];
  const start = process.hrtime.bigint();
  const deadline = start + BigInt(targetMs) * 1_000_000n;
  let now = start;
  while (now < deadline || times.length === 0) {
    const t0 = process.hrtime.bigint();
    engine.query(query, { input });
    now = process.hrtime.bigint();
    times.push(Number(now - t0));
  }
  const sorted = Float64Array.from(times).sort();
  const result: BenchResult = {
    samples: times.length,
    "ns/op": Math.round(Number(now - start) / times.length),
  };
  for (const p of [0.5, 0.75, 0.9, 0.99, 0.999]) {
    result[`histogram_timer_rego_query_eval_ns_${p * 100}%`] = Math.round(percentile(sorted, p));
  }
  return result;
}

function prettyTable(r: BenchResult): string {
  const rows = Object.entries(r).map(([k, v]) => [k, String(v)] as const);
  const w0 = Math.max(...rows.map(([k]) => k.length));
  const w1 = Math.max(...rows.map(([, v]) => v.length));
  const line = `+${"-".repeat(w0 + 2)}+${"-".repeat(w1 + 2)}+\n`;
  return line + rows.map(([k, v]) => `| ${k.padEnd(w0)} | ${v.padStart(w1)} |\n`).join("") + line;
}

function parse(argv: string[]) {
  const parsed = parseFlags(argv, OPTIONS);
  const v = parsed.values;
  if (parsed.positionals.length !== 1) throw new UsageError("specify exactly one query");
  for (const flag of ["count", "benchtime"] as const) {
    if (!/^[1-9]\d*$/.test(v[flag]))
      throw new UsageError(`--${flag} must be a positive whole number`);
  }
  if (!["true", "false"].includes(v.fail)) throw new UsageError("--fail must be true or false");
  requirePrettyOrJson(v.format);
  return { values: v, query: parsed.positionals[0] as string };
}

async function runBench(argv: string[], io: PolicyIo): Promise<number> {
  const parsed = parseOrReportUsage(() => parse(argv), USAGE, io);
  if (!parsed) return 2;
  const v = parsed.values;
  try {
    const { engine } = buildEngine(v.data ?? [], { v0Compatible: v["v0-compatible"] });
    const input = v.input ? parseDataText(v.input, readFileSync(v.input, "utf8")) : undefined;
    if (v.fail === "true" && engine.query(parsed.query, { input }).length === 0) {
      io.stderr.write("error: undefined result\n");
      return 1;
    }
    for (let i = 0; i < Number(v.count); i++) {
      const result = benchOnce(engine, parsed.query, input, Number(v.benchtime));
      io.stdout.write(
        v.format === "json" ? `${JSON.stringify(result, null, 2)}\n` : prettyTable(result),
      );
    }
    return 0;
  } catch (e) {
    io.stderr.write(describeFailure(e));
    return 1;
  }
}

export const benchCommand: Command = {
  name: "bench",
  summary: "Benchmark a query",
  usage: USAGE,
  run: runBench,
};
