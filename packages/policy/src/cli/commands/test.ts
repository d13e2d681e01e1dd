/**
 * `rego test <path>...`: runs the policy tests, as `opa test` does. A test is a rule whose
 * name starts with `test_` (no arguments); it passes when its value is `true`. Rules named
 * `todo_test_*` are reported as skipped. Exit 0 when every test passes, 2 when one fails,
 * errs or is skipped (skipped: 0 with `-z`), 1 when the files do not load or compile (or,
 * with `--fail-on-empty`, no test ran).
 */
import { parseGoDuration } from "@quintet/gostd/time";
import type { PolicyEngine } from "../../engine.js";
import { engineFromFiles } from "../../loader/build-engine.js";
import { loadBundlePaths } from "../../loader/load-bundles.js";
import { type LoadedFiles, loadPaths } from "../../loader/load-paths.js";
import { loadSchemas } from "../../loader/schemas.js";
import { parseModule } from "../../syntax/module-parser.js";
import { CoverageCollector, thresholdMessage } from "../../trace/coverage.js";
import type { Command, PolicyIo } from "../cli-io.js";
import { reportExpectedFailure } from "../error-report.js";
import {
  parseFlags,
  parseOrReportUsage,
  requirePaths,
  requirePrettyOrJson,
  UsageError,
} from "../parse-flags.js";
import { type BenchFigures, benchTest } from "./test-bench.js";
import { findTests, fullName, runTest, type TestCase, type TestResult } from "./test-cases.js";
import { jsonReport, prettyReport, type ReportOptions } from "./test-report.js";
import { parseTestExplain } from "./test-trace.js";

const USAGE = `Usage: rego test [flags] <path>...

Flags:
  -v, --verbose               list every test (and its print output), not only failures;
                              failed tests' traces (notes and failures) under FAILURES
      --explain <mode>        the trace shown with failures: fails, full, notes or debug
                              (implies -v)
  -r, --run <regex>           run only tests whose full name (data.pkg.test_x) matches
  -f, --format <fmt>          pretty (default) or json
      --ignore <pattern>      skip files and directories with a matching name (repeatable)
  -s, --schema <file|dir>     JSON Schema of input (a file), or schemas for METADATA
                              schemas: annotations (a directory)
  -b, --bundle                paths are bundles (directories or .tar.gz)
  -z, --exit-zero-on-skipped  skipped tests do not make the exit code 2
      --fail-on-empty         exit 1 when no test ran
      --timeout <duration>    bound on each test (Go duration; default 5s)
      --count <n>             run the tests n times (default 1)
  -p, --parallel <n>          accepted for opa compatibility; tests run one at a time
      --v0-compatible         parse policies as Rego v0
  -c, --coverage              print OPA's JSON coverage report instead of the results
      --threshold <p>         with --coverage: exit 2 when coverage is below p percent
      --bench                 benchmark each passing test (ns/op, timer_rego_query_eval_ns/op)
      --benchtime <ms>        with --bench: time to spend on each test (default 1000)
`;

const OPTIONS = {
  verbose: { type: "boolean", short: "v" },
  explain: { type: "string" },
  run: { type: "string", short: "r" },
  format: { type: "string", short: "f", default: "pretty" },
  ignore: { type: "string", multiple: true },
  schema: { type: "string", short: "s" },
  bundle: { type: "boolean", short: "b" },
  "exit-zero-on-skipped": { type: "boolean", short: "z" },
  "fail-on-empty": { type: "boolean" },
  timeout: { type: "string" },
  count: { type: "string", default: "1" },
  parallel: { type: "string", short: "p" },
  "v0-compatible": { type: "boolean" },
  coverage: { type: "boolean", short: "c" },
  threshold: { type: "string" },
  bench: { type: "boolean" },
  benchtime: { type: "string", default: "1000" },
} as const;

/** A whole number of at least `min`, or a UsageError naming the flag. */
function wholeNumber(flag: string, text: string, min: number): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || n < min)
    throw new UsageError(`--${flag}: "${text}" is not a whole number of at least ${min}`);
  return n;
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
  const explain = parseTestExplain(parsed.values.explain);
  let timeoutMs = 5000;
  if (parsed.values.timeout !== undefined) {
    try {
      timeoutMs = Number(parseGoDuration(parsed.values.timeout) / 1_000_000n);
    } catch (e) {
      throw new UsageError(`--timeout: ${(e as Error).message}`);
    }
  }
  // As OPA: a zero timeout means the default.
  if (timeoutMs <= 0) timeoutMs = 5000;
  const count = wholeNumber("count", parsed.values.count, 1);
  if (parsed.values.parallel !== undefined) wholeNumber("parallel", parsed.values.parallel, 0);
  // As OPA: --explain turns on verbose reporting.
  const verbose = (parsed.values.verbose ?? false) || explain !== undefined;
  return { ...parsed, filter, benchtime, explain, timeoutMs, count, verbose };
}

type Parsed = ReturnType<typeof parse>;

function load(parsed: Parsed): LoadedFiles {
  if (parsed.values.bundle) return loadBundlePaths(parsed.positionals, { skipVerify: true });
  return loadPaths(parsed.positionals, { ignore: parsed.values.ignore });
}

async function runTests(argv: string[], io: PolicyIo): Promise<number> {
  const parsed = parseOrReportUsage(() => parse(argv), USAGE, io);
  if (!parsed) return 2;
  const v0 = parsed.values["v0-compatible"] ?? false;
  let engine: PolicyEngine;
  let tests: TestCase[];
  let files: LoadedFiles;
  try {
    files = load(parsed);
    engine = engineFromFiles(files, {
      v0Compatible: v0,
      compileChecks:
        parsed.values.schema === undefined
          ? undefined
          : { schemas: loadSchemas(parsed.values.schema) },
    });
    tests = findTests(files, v0).filter((t) => !parsed.filter || parsed.filter.test(fullName(t)));
  } catch (e) {
    return reportExpectedFailure(io, e);
  }
  for (let i = 0; i < parsed.count; i++) {
    const code = await runOnce(io, parsed, engine, tests, files, v0);
    if (code !== 0) return code;
  }
  return 0;
}

/** One run of every test, reported; the exit code. */
async function runOnce(
  io: PolicyIo,
  parsed: Parsed,
  engine: PolicyEngine,
  tests: TestCase[],
  files: LoadedFiles,
  v0: boolean,
): Promise<number> {
  const coverage =
    parsed.values.coverage || parsed.values.threshold !== undefined
      ? new CoverageCollector()
      : undefined;
  // As OPA: coverage replaces tracing.
  const trace = parsed.verbose && !coverage;
  // One at a time: tests share the engine's caches and print order matters.
  const results: TestResult[] = [];
  for (const t of tests) {
    const listeners = coverage ? [coverage.listener] : [];
    results.push(await runTest(engine, t, { trace, listeners, timeoutMs: parsed.timeoutMs }));
  }
  if (coverage) return reportCoverage(io, coverage, results, files, parsed, v0);
  let bench: Map<TestResult, BenchFigures> | undefined;
  if (parsed.values.bench) {
    bench = new Map();
    for (const r of results) {
      if (r.outcome === "pass")
        bench.set(r, benchTest(engine, [...r.pkg, r.name], parsed.benchtime));
    }
  }
  const options: ReportOptions = {
    verbose: parsed.verbose,
    traceMode: parsed.explain ?? "verbose",
    sources: new Map(files.modules.map((m) => [m.file, m.source])),
    bench,
  };
  io.stdout.write(
    parsed.values.format === "json" ? jsonReport(results, options) : prettyReport(results, options),
  );
  if (results.length === 0 && parsed.values["fail-on-empty"]) {
    io.stderr.write("no tests were run\n");
    return 1;
  }
  return exitCode(results, parsed.values["exit-zero-on-skipped"] ?? false);
}

/** 2 when a test failed, erred or (unless `-z`) was skipped, else 0. */
function exitCode(results: TestResult[], skippedIsFine: boolean): number {
  const bad = results.some(
    (r) =>
      r.outcome === "fail" || r.outcome === "error" || (r.outcome === "skip" && !skippedIsFine),
  );
  return bad ? 2 : 0;
}

/**
 * `--coverage`: OPA's JSON report on stdout when every test passes and coverage reaches
 * `--threshold`; otherwise the failures (or OPA's threshold message, listing the lines not
 * covered with -v) on stderr and exit 2.
 */
function reportCoverage(
  io: PolicyIo,
  coverage: CoverageCollector,
  results: TestResult[],
  files: LoadedFiles,
  parsed: Parsed,
  v0: boolean,
): number {
  const failed = results.filter((r) => r.outcome === "fail" || r.outcome === "error");
  if (failed.length > 0) {
    io.stderr.write(
      prettyReport(failed, { verbose: false, traceMode: "verbose", sources: new Map() }),
    );
    return 2;
  }
  const report = coverage.report(files.modules.map((m) => parseModule(m.file, m.source, v0)));
  const threshold = Number(parsed.values.threshold ?? 0);
  if (report.coverage < threshold) {
    const message = thresholdMessage(report, threshold);
    io.stderr.write(parsed.values.verbose ? message : `${message.split("\n")[0]}\n`);
    return 2;
  }
  io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  return 0;
}

export const testCommand: Command = {
  name: "test",
  summary: "Run policy tests (rules named test_*)",
  usage: USAGE,
  run: runTests,
};
