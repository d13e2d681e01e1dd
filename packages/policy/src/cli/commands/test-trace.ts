/**
 * The trace of one `rego test` case, as `opa test -v` / `--explain` keeps and prints it: the
 * events of the test's query (`data.pkg.test_x`, shown as OPA's runner rewrites it,
 * `data.pkg.test_x = _`), filtered by the explain mode, printed with locations.
 */
import type { Expr } from "../../ast/nodes.js";
import {
  type ExplainMode,
  explainEvents,
  lineage,
  prettyTrace,
  type SourceTexts,
  traceJson,
} from "../../trace/pretty-trace.js";
import type { TraceEvent } from "../../trace/tracer.js";
import { UsageError } from "../parse-flags.js";

/** `--explain`'s modes for `opa test` (no `off`: the flag is set or not). */
export const TEST_EXPLAIN_MODES: readonly ExplainMode[] = ["fails", "full", "notes", "debug"];

/** Which events a test's trace keeps: an explain mode, or `-v` alone (notes and failures). */
export type TestTraceMode = ExplainMode | "verbose";

/** The `--explain` value checked, as OPA's enum flag checks it. */
export function parseTestExplain(value: string | undefined): ExplainMode | undefined {
  if (value === undefined) return undefined;
  if (!(TEST_EXPLAIN_MODES as readonly string[]).includes(value))
    throw new UsageError(
      `invalid argument "${value}" for "--explain" flag: must be one of {${TEST_EXPLAIN_MODES.join(",")}}`,
    );
  return value as ExplainMode;
}

/** The query that evaluates a test rule: `data.` and the path, bracketing keys that are not names. */
export function testQuery(path: readonly string[]): string {
  return `data${path.map((p) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(p) ? `.${p}` : `[${JSON.stringify(p)}]`)).join("")}`;
}

/** The file name the engine gives a query's locations. */
const QUERY_FILE = "query";

/**
 * The events kept for `mode`. Without `--explain`, `-v` keeps the notes and failures with
 * the queries that led to them, as OPA's default test filter does.
 */
export function filterTestTrace(events: readonly TraceEvent[], mode: TestTraceMode): TraceEvent[] {
  if (mode !== "verbose") return explainEvents(events, mode);
  return lineage(events, (e) => e.op === "Note" || e.op === "Fail");
}

/** The events with the test query's own expression spanning `<query> = _`, as OPA shows it. */
function withCapturedQuery(
  events: readonly TraceEvent[],
  query: string,
): { events: TraceEvent[]; sources: Map<string, string> } {
  const shown = `${query} = _`;
  const widen = (expr: Expr): Expr => ({
    ...expr,
    loc: { ...expr.loc, start: 0, end: shown.length },
  });
  const out = events.map((e): TraceEvent => {
    if (e.loc?.file !== QUERY_FILE) return e;
    const loc = { ...e.loc, start: 0, end: shown.length };
    if (e.node.kind === "expr")
      return { ...e, loc, node: { kind: "expr", expr: widen(e.node.expr) } };
    if (e.node.kind === "body")
      return { ...e, loc, node: { kind: "body", body: e.node.body.map(widen) } };
    return e;
  });
  return { events: out, sources: new Map([[QUERY_FILE, shown]]) };
}

/** The sources with the test query's shown text added. */
function allSources(sources: SourceTexts, own: Map<string, string>): SourceTexts {
  return new Map([...sources, ...own]);
}

/** The kept events printed as OPA's pretty trace with locations. */
export function testTraceText(
  events: readonly TraceEvent[],
  query: string,
  sources: SourceTexts,
): string {
  const shown = withCapturedQuery(events, query);
  return prettyTrace(shown.events, allSources(sources, shown.sources));
}

/** The kept events as the `trace` of a test in `--format json`. */
export function testTraceJson(
  events: readonly TraceEvent[],
  query: string,
  sources: SourceTexts,
): unknown[] {
  const shown = withCapturedQuery(events, query);
  return traceJson(shown.events, allSources(sources, shown.sources));
}
