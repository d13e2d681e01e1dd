/**
 * `rego test`'s reports, as OPA's tester reporters print them: the pretty report (with -v, a
 * FAILURES section holding each failed test's trace, then SUMMARY) and the JSON array.
 */
import type { SourceTexts } from "../../trace/pretty-trace.js";
import { goDuration } from "../../trace/text-table.js";
import { type BenchFigures, benchJson, benchLine } from "./test-bench.js";
import { fullName, type TestResult } from "./test-cases.js";
import {
  filterTestTrace,
  type TestTraceMode,
  testQuery,
  testTraceJson,
  testTraceText,
} from "./test-trace.js";

/** What the reports need besides the results. */
export interface ReportOptions {
  /** `-v` (also set by `--explain`): list every test, and print failed tests' traces. */
  verbose: boolean;
  /** Which trace events are kept (when the tests were traced). */
  traceMode: TestTraceMode;
  /** Policy texts by file, to show trace nodes as written. */
  sources: SourceTexts;
  /** `--bench` figures of the passing tests. */
  bench?: Map<TestResult, BenchFigures>;
}

const LABELS = { pass: "PASS", fail: "FAIL", skip: "SKIPPED", error: "ERROR" } as const;
const RULE = "-".repeat(80);

/** A test's line: `data.p.test_x: FAIL (1.2ms)`; a skipped test has no duration. */
function resultLine(r: TestResult): string {
  const head = `${fullName(r)}: ${LABELS[r.outcome]}`;
  return r.outcome === "skip" ? head : `${head} (${goDuration(r.durationNs)})`;
}

/** Lines indented by two spaces, as OPA's indenting writer writes them. */
function indented(text: string): string[] {
  return text.split("\n").map((l) => (l === "" ? "  " : `  ${l}`));
}

/** The trace of a failed test, filtered for the mode. */
function traceLines(r: TestResult, options: ReportOptions): string[] {
  const events = filterTestTrace(r.trace ?? [], options.traceMode);
  const text = testTraceText(events, testQuery([...r.pkg, r.name]), options.sources);
  return text === "" ? [] : indented(text.replace(/\n$/, ""));
}

/** `-v` with failures: each failed test, a blank line, its trace, a blank line. */
function failuresSection(results: TestResult[], options: ReportOptions): string[] {
  const failed = results.filter((r) => r.outcome === "fail");
  if (!options.verbose || failed.length === 0) return [];
  const lines = ["FAILURES", RULE];
  for (const r of failed) lines.push(resultLine(r), "", ...traceLines(r, options), "");
  lines.push("SUMMARY", RULE);
  return lines;
}

/**
 * `opa test`'s pretty report: with -v the FAILURES section, then the tests shown (failures,
 * or every one with -v) grouped by file with their print output and errors, then the totals.
 * With `--bench`, passing tests are benchmark lines instead.
 */
export function prettyReport(results: TestResult[], options: ReportOptions): string {
  const lines = failuresSection(results, options);
  let dirty = false;
  let lastFile: string | undefined;
  for (const r of results) {
    const figures = r.outcome === "pass" ? options.bench?.get(r) : undefined;
    if (figures) {
      dirty = true;
      lines.push(benchLine(fullName(r), figures));
    } else if (options.verbose || r.outcome !== "pass") {
      if (r.file !== lastFile) {
        if (lastFile !== undefined) lines.push("");
        lines.push(`${r.file}:`);
        lastFile = r.file;
      }
      dirty = true;
      lines.push(resultLine(r));
      if (r.output.trim() !== "") lines.push("", ...indented(r.output.trim()), "");
    }
    if (r.error) lines.push(`  ${r.error.toString()}`);
  }
  if (dirty) lines.push(RULE);
  const total = results.length;
  for (const outcome of ["pass", "fail", "skip", "error"] as const) {
    const n = results.filter((r) => r.outcome === outcome).length;
    if (n > 0) lines.push(`${LABELS[outcome]}: ${n}/${total}`);
  }
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
}

/** `--format json`: OPA's array of test results, with each test's kept trace when traced. */
export function jsonReport(results: TestResult[], options: ReportOptions): string {
  const items = results.map((r) => {
    const trace = r.trace ? filterTestTrace(r.trace, options.traceMode) : [];
    const figures = options.bench?.get(r);
    return {
      location: { file: r.file, row: r.row, col: r.col },
      package: `data.${r.pkg.join(".")}`,
      name: r.name,
      duration: r.durationNs,
      ...(r.outcome === "fail" ? { fail: true } : {}),
      ...(r.outcome === "skip" ? { skip: true } : {}),
      ...(r.error ? { error: { code: r.error.code, message: r.error.message } } : {}),
      ...(trace.length > 0
        ? { trace: testTraceJson(trace, testQuery([...r.pkg, r.name]), options.sources) }
        : {}),
      ...(r.output ? { output: Buffer.from(r.output).toString("base64") } : {}),
      ...(figures ? { benchmark_result: benchJson(figures) } : {}),
    };
  });
  return `${JSON.stringify(items, null, 2)}\n`;
}
