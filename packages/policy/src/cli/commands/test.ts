/**
 * `rego test <path>...`: runs the policy tests, as `opa test` does. A test is a rule whose
 * name starts with `test_` (no arguments); it passes when its value is `true`. Rules named
 * `todo_test_*` are reported as skipped. Exit 0 when every test passes, 2 when one fails or
 * errs, 1 when the files do not load or compile.
 */
import type { PolicyEngine } from "../../engine.js";
import { RegoError } from "../../errors.js";
import type { EvalTracer } from "../../eval/state.js";
import { engineFromFiles } from "../../loader/build-engine.js";
import { type LoadedFiles, loadPaths } from "../../loader/load-paths.js";
import { parseModule } from "../../syntax/module-parser.js";
import { CoverageCollector, thresholdMessage } from "../../trace/coverage.js";
import { EventTracer } from "../../trace/tracer.js";
import type { CliIO, Command } from "../cli-io.js";
import { reportExpectedFailure } from "../error-report.js";
import {
  parseFlags,
  parseOrReportUsage,
  requirePaths,
  requirePrettyOrJson,
  UsageError,
} from "../parse-flags.js";
import { type BenchFigures, benchJson, benchLine, benchTest } from "./test-bench.js";

const USAGE = `Usage: rego test [flags] <path>...

Flags:
  -v, --verbose        list every test (and its print output), not only failures
  -r, --run <regex>    run only tests whose full name (data.pkg.test_x) matches
  -f, --format <fmt>   pretty (default) or json
      --v0-compatible  parse policies as Rego v0
  -c, --coverage       print OPA's JSON coverage report instead of the results
      --threshold <p>  with --coverage: exit 2 when coverage is below p percent
      --bench          benchmark each passing test (ns/op, timer_rego_query_eval_ns/op)
      --benchtime <ms> with --bench: time to spend on each test (default 1000)
`;

const OPTIONS = {
  verbose: { type: "boolean", short: "v" },
  run: { type: "string", short: "r" },
  format: { type: "string", short: "f", default: "pretty" },
  "v0-compatible": { type: "boolean" },
  coverage: { type: "boolean", short: "c" },
  threshold: { type: "string" },
  bench: { type: "boolean" },
  benchtime: { type: "string", default: "1000" },
} as const;

/** A test found in the policies. */
interface TestCase {
  file: string;
  row: number;
  col: number;
  pkg: string[];
  name: string;
  skip: boolean;
}

/** The outcome of one test. */
interface TestResult extends TestCase {
  durationNs: number;
  outcome: "pass" | "fail" | "skip" | "error";
  error?: RegoError;
  output: string;
}

/** Test rules of every module, once per package and name, in file order. */
function findTests(files: LoadedFiles, v0: boolean): TestCase[] {
  const seen = new Set<string>();
  const out: TestCase[] = [];
  for (const m of files.modules) {
    const module = parseModule(m.file, m.source, v0);
    for (const rule of module.rules) {
      const head = rule.ref[0];
      if (
        rule.ref.length !== 1 ||
        rule.args ||
        head?.type !== "scalar" ||
        typeof head.value !== "string"
      )
        continue;
      const name = head.value;
      const skip = name.startsWith("todo_test_");
      if (!skip && !name.startsWith("test_")) continue;
      const key = `${module.pkg.join(".")}.${name}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ file: m.file, row: rule.loc.row, col: rule.loc.col, pkg: module.pkg, name, skip });
    }
  }
  return out;
}

async function runOne(engine: PolicyEngine, t: TestCase, tracer?: EvalTracer): Promise<TestResult> {
  if (t.skip) return { ...t, durationNs: 0, outcome: "skip", output: "" };
  let output = "";
  const start = process.hrtime.bigint();
  try {
    const value = await engine.evalRefAsync([...t.pkg, t.name], {
      print: (message) => {
        output += `${message}\n`;
      },
      tracer,
    });
    const durationNs = Number(process.hrtime.bigint() - start);
    return { ...t, durationNs, outcome: value === true ? "pass" : "fail", output };
  } catch (e) {
    if (!(e instanceof RegoError)) throw e;
    return {
      ...t,
      durationNs: Number(process.hrtime.bigint() - start),
      outcome: "error",
      error: e,
      output,
    };
  }
}

function fullName(t: TestCase): string {
  return `data.${[...t.pkg, t.name].join(".")}`;
}

function duration(ns: number): string {
  if (ns >= 1e9) return `${(ns / 1e9).toFixed(3)}s`;
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(3)}ms`;
  return `${(ns / 1e3).toFixed(3)}µs`;
}

/**
 * `opa test`'s pretty report: failures (or everything with -v) by file, then totals. With
 * `--bench`, passing tests are listed first as benchmark lines.
 */
function prettyReport(
  results: TestResult[],
  verbose: boolean,
  bench?: Map<TestResult, BenchFigures>,
): string {
  const lines: string[] = [];
  if (bench) for (const [r, f] of bench) lines.push(benchLine(fullName(r), f));
  const shown = results.filter(
    (r) => (verbose && !bench?.has(r)) || r.outcome === "fail" || r.outcome === "error",
  );
  for (const file of [...new Set(shown.map((r) => r.file))]) {
    lines.push(`${file}:`);
    for (const r of shown.filter((x) => x.file === file)) {
      const label = { pass: "PASS", fail: "FAIL", skip: "SKIPPED", error: "ERROR" }[r.outcome];
      lines.push(`${fullName(r)}: ${label} (${duration(r.durationNs)})`);
      if (r.error) lines.push(`  ${r.error.toString()}`);
      if (verbose && r.output)
        lines.push(
          ...r.output
            .trimEnd()
            .split("\n")
            .map((l) => `  ${l}`),
        );
    }
    lines.push("");
  }
  lines.push("-".repeat(80));
  const total = results.length;
  for (const [label, outcome] of [
    ["PASS", "pass"],
    ["FAIL", "fail"],
    ["SKIPPED", "skip"],
    ["ERROR", "error"],
  ] as const) {
    const n = results.filter((r) => r.outcome === outcome).length;
    if (n > 0) lines.push(`${label}: ${n}/${total}`);
  }
  return `${lines.join("\n")}\n`;
}

function jsonReport(results: TestResult[], bench?: Map<TestResult, BenchFigures>): string {
  const items = results.map((r) => ({
    location: { file: r.file, row: r.row, col: r.col },
    package: `data.${r.pkg.join(".")}`,
    name: r.name,
    duration: r.durationNs,
    ...(r.outcome === "fail" ? { fail: true } : {}),
    ...(r.outcome === "skip" ? { skip: true } : {}),
    ...(r.error ? { error: { code: r.error.code, message: r.error.message } } : {}),
    ...(r.output ? { output: Buffer.from(r.output).toString("base64") } : {}),
    ...(bench?.has(r) ? { benchmark_result: benchJson(bench.get(r) as BenchFigures) } : {}),
  }));
  return `${JSON.stringify(items, null, 2)}\n`;
}

function parse(argv: string[]) {
  const parsed = parseFlags(argv, OPTIONS);
  requirePaths(parsed.positionals);
  requirePrettyOrJson(parsed.values.format);
  let filter: RegExp | undefined;
  try {
    filter = parsed.values.run === undefined ? undefined : new RegExp(parsed.values.run);
  } catch (e) {
    throw new UsageError(`--run: ${(e as Error).message}`);
  }
  const threshold = parsed.values.threshold;
  if (threshold !== undefined && !(Number(threshold) >= 0 && Number(threshold) <= 100))
    throw new UsageError(`--threshold: "${threshold}" is not a percentage from 0 to 100`);
  const benchtime = Number(parsed.values.benchtime);
  if (!(benchtime > 0))
    throw new UsageError("--benchtime must be a positive number of milliseconds");
  return { ...parsed, filter, benchtime };
}

async function runTests(argv: string[], io: CliIO): Promise<number> {
  const parsed = parseOrReportUsage(() => parse(argv), USAGE, io);
  if (!parsed) return 2;
  const v0 = parsed.values["v0-compatible"] ?? false;
  let engine: PolicyEngine;
  let tests: TestCase[];
  let files: LoadedFiles;
  try {
    files = loadPaths(parsed.positionals);
    engine = engineFromFiles(files, { v0Compatible: v0 });
    tests = findTests(files, v0).filter((t) => !parsed.filter || parsed.filter.test(fullName(t)));
  } catch (e) {
    return reportExpectedFailure(io, e);
  }
  const coverage =
    parsed.values.coverage || parsed.values.threshold !== undefined
      ? new CoverageCollector()
      : undefined;
  // One at a time: tests share the engine's caches and print order matters.
  const results: TestResult[] = [];
  for (const t of tests) {
    results.push(
      await runOne(engine, t, coverage ? new EventTracer([coverage.listener]) : undefined),
    );
  }
  if (coverage) return reportCoverage(io, coverage, results, files, parsed.values, v0);
  let bench: Map<TestResult, BenchFigures> | undefined;
  if (parsed.values.bench) {
    bench = new Map();
    for (const r of results) {
      if (r.outcome === "pass")
        bench.set(r, benchTest(engine, [...r.pkg, r.name], parsed.benchtime));
    }
  }
  io.stdout(
    parsed.values.format === "json"
      ? jsonReport(results, bench)
      : prettyReport(results, parsed.values.verbose ?? false, bench),
  );
  return results.some((r) => r.outcome === "fail" || r.outcome === "error") ? 2 : 0;
}

/**
 * `--coverage`: OPA's JSON report on stdout when every test passes and coverage reaches
 * `--threshold`; otherwise the failures (or OPA's threshold message, listing the lines not
 * covered with -v) on stderr and exit 2.
 */
function reportCoverage(
  io: CliIO,
  coverage: CoverageCollector,
  results: TestResult[],
  files: LoadedFiles,
  flags: { threshold?: string; verbose?: boolean },
  v0: boolean,
): number {
  const failed = results.filter((r) => r.outcome === "fail" || r.outcome === "error");
  if (failed.length > 0) {
    io.stderr(prettyReport(failed, false));
    return 2;
  }
  const report = coverage.report(files.modules.map((m) => parseModule(m.file, m.source, v0)));
  const threshold = Number(flags.threshold ?? 0);
  if (report.coverage < threshold) {
    const message = thresholdMessage(report, threshold);
    io.stderr(flags.verbose ? message : `${message.split("\n")[0]}\n`);
    return 2;
  }
  io.stdout(`${JSON.stringify(report, null, 2)}\n`);
  return 0;
}

export const testCommand: Command = {
  name: "test",
  summary: "Run policy tests (rules named test_*)",
  usage: USAGE,
  run: runTests,
};
