/**
 * The test cases of `rego test`: rules named `test_*` (run) and `todo_test_*` (skipped),
 * found in the loaded modules, and the evaluation of one of them, with its print output
 * and, when asked for, its trace.
 */
import type { PolicyEngine } from "../../engine.js";
import { RegoError } from "../../errors.js";
import type { LoadedFiles } from "../../loader/load-paths.js";
import { parseModule } from "../../syntax/module-parser.js";
import { EventTracer, type TraceEvent, type TraceListener } from "../../trace/tracer.js";
import { testQuery } from "./test-trace.js";

/** A test found in the policies. */
export interface TestCase {
  file: string;
  row: number;
  col: number;
  pkg: string[];
  name: string;
  skip: boolean;
}

/** The outcome of one test. */
export interface TestResult extends TestCase {
  durationNs: number;
  outcome: "pass" | "fail" | "skip" | "error";
  error?: RegoError;
  output: string;
  /** Every trace event of the evaluation, when tracing was on. */
  trace?: TraceEvent[];
}

/** How one test is evaluated. */
export interface RunOptions {
  /** Keep the evaluation's trace (`-v`, `--explain`). */
  trace: boolean;
  /** Other listeners of the evaluation's events (coverage). */
  listeners?: TraceListener[];
  /** Bound on the test's evaluation time. */
  timeoutMs?: number;
}

/** `data.<package>.<name>`. */
export function fullName(t: TestCase): string {
  return `data.${[...t.pkg, t.name].join(".")}`;
}

/** Test rules of every module, once per package and name, in file order. */
export function findTests(files: LoadedFiles, v0: boolean): TestCase[] {
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

/**
 * The test's value: traced, it is evaluated as the query `data.pkg.test_x` (as OPA's runner
 * does, so the trace starts at that query); otherwise the rule is looked up directly.
 */
async function evaluate(
  engine: PolicyEngine,
  t: TestCase,
  options: RunOptions,
  print: (message: string) => void,
  events: TraceEvent[],
): Promise<unknown> {
  const listeners = [...(options.listeners ?? [])];
  if (options.trace) listeners.push((e) => events.push(e));
  const tracer = listeners.length > 0 ? new EventTracer(listeners) : undefined;
  const common = { print, tracer, timeoutMs: options.timeoutMs };
  if (!options.trace) return engine.evalRefAsync([...t.pkg, t.name], common);
  const results = await engine.queryAsync(testQuery([...t.pkg, t.name]), common);
  return results[0]?.expressions[0]?.value;
}

/** Runs one test (a skipped one is only reported). */
export async function runTest(
  engine: PolicyEngine,
  t: TestCase,
  options: RunOptions,
): Promise<TestResult> {
  if (t.skip) return { ...t, durationNs: 0, outcome: "skip", output: "" };
  let output = "";
  const print = (message: string) => {
    output += `${message}\n`;
  };
  const events: TraceEvent[] = [];
  const trace = options.trace ? events : undefined;
  const start = process.hrtime.bigint();
  try {
    const value = await evaluate(engine, t, options, print, events);
    const durationNs = Number(process.hrtime.bigint() - start);
    return { ...t, durationNs, outcome: value === true ? "pass" : "fail", output, trace };
  } catch (e) {
    if (!(e instanceof RegoError)) throw e;
    const durationNs = Number(process.hrtime.bigint() - start);
    return { ...t, durationNs, outcome: "error", error: e, output, trace };
  }
}
