/**
 * `rego eval`'s looking-inside flags: --explain, --profile (--profile-limit, --profile-sort),
 * --metrics, --instrument and --coverage. Each adds a trace listener to the query and a
 * section to the output: JSON keys `metrics`, `explanation`, `profile`, `coverage` after
 * `result` (OPA's order), or in `--format pretty` the trace before the result and the
 * tables after it.
 */
import type { PolicyEngine, QueryOptions, QueryResult } from "../../engine.js";
import { engineFromFiles } from "../../loader/build-engine.js";
import { type LoadedFiles, loadPaths } from "../../loader/load-paths.js";
import { parseModule, parseQuery } from "../../syntax/module-parser.js";
import { CoverageCollector } from "../../trace/coverage.js";
import { instrumentListener, Metrics } from "../../trace/metrics.js";
import {
  EXPLAIN_MODES,
  type ExplainMode,
  explainEvents,
  prettyTrace,
  traceJson,
} from "../../trace/pretty-trace.js";
import {
  DEFAULT_PROFILE_SORT,
  PROFILE_SORT_CRITERIA,
  Profiler,
  type ProfileSort,
  profileTable,
} from "../../trace/profiler.js";
import { textTable } from "../../trace/text-table.js";
import { EventTracer, type TraceEvent, type TraceListener } from "../../trace/tracer.js";
import { type EvalFormat, formatEvalResults } from "../eval-output.js";
import { UsageError } from "../parse-flags.js";

export const INSIGHT_USAGE = `      --explain <mode>         trace: notes, fails, full or debug (off by default)
      --profile                profile expressions by line
      --profile-limit <n>      show the n most expensive lines (default 10; 0 all)
      --profile-sort <list>    comma list of total_time_ns, num_eval, num_redo,
                               num_gen_expr, file, line (decreasing)
      --metrics                report timers (timer_rego_*_ns)
      --instrument             --metrics plus evaluation counters
      --coverage               report coverage of the loaded policies
`;

export const INSIGHT_OPTIONS = {
  explain: { type: "string" },
  profile: { type: "boolean" },
  "profile-limit": { type: "string" },
  "profile-sort": { type: "string" },
  metrics: { type: "boolean" },
  instrument: { type: "boolean" },
  coverage: { type: "boolean" },
} as const;

interface InsightFlags {
  explain?: string;
  profile?: boolean;
  "profile-limit"?: string;
  "profile-sort"?: string;
  metrics?: boolean;
  instrument?: boolean;
  coverage?: boolean;
}

function profileSettings(flags: InsightFlags): { limit: number; sort: ProfileSort[] } {
  const limitText = flags["profile-limit"] ?? "10";
  if (!/^\d+$/.test(limitText))
    throw new UsageError(`--profile-limit: "${limitText}" is not a whole number`);
  let sort = [...DEFAULT_PROFILE_SORT];
  if (flags["profile-sort"] !== undefined) {
    sort = flags["profile-sort"].split(",").map((s) => s.trim()) as ProfileSort[];
    const bad = sort.find((s) => !PROFILE_SORT_CRITERIA.includes(s));
    if (bad !== undefined)
      throw new UsageError(
        `--profile-sort: unknown criterion "${bad}" (expected ${PROFILE_SORT_CRITERIA.join(", ")})`,
      );
  }
  return { limit: Number(limitText), sort };
}

/** One eval run's explain, profile, metrics and coverage collection. */
export class EvalInsight {
  private readonly events: TraceEvent[] = [];
  private readonly metrics: Metrics | undefined;
  private readonly profiler: Profiler | undefined;
  private readonly coverage: CoverageCollector | undefined;
  private readonly instrument: boolean;
  private readonly profile: { limit: number; sort: ProfileSort[] };
  private readonly sources = new Map<string, string>();
  private files: LoadedFiles | undefined;
  private queryStart = 0n;
  private evalStart = 0n;

  private constructor(
    private readonly explain: ExplainMode | undefined,
    flags: InsightFlags,
    private readonly v0: boolean,
  ) {
    const wantsProfile =
      flags.profile || flags["profile-limit"] !== undefined || flags["profile-sort"] !== undefined;
    this.profile = profileSettings(flags);
    this.profiler = wantsProfile ? new Profiler() : undefined;
    this.metrics = flags.metrics || flags.instrument ? new Metrics() : undefined;
    this.instrument = flags.instrument ?? false;
    this.coverage = flags.coverage ? new CoverageCollector() : undefined;
  }

  /** The insight the flags ask for; undefined when none (eval runs untraced). */
  static fromFlags(flags: InsightFlags, v0: boolean): EvalInsight | undefined {
    let explain: ExplainMode | undefined;
    if (flags.explain !== undefined && flags.explain !== "off") {
      if (!EXPLAIN_MODES.includes(flags.explain as ExplainMode))
        throw new UsageError(
          `--explain: unknown mode "${flags.explain}" (expected off, ${EXPLAIN_MODES.join(", ")})`,
        );
      explain = flags.explain as ExplainMode;
    }
    const insight = new EvalInsight(explain, flags, v0);
    return explain || insight.profiler || insight.metrics || insight.coverage ? insight : undefined;
  }

  /** Loads and compiles, timing each step. */
  build(paths: string[], ignore?: readonly string[]): PolicyEngine {
    const m = this.metrics;
    const load = () => loadPaths(paths, { ignore });
    const files = m ? m.time("rego_load_files", load) : load();
    this.files = files;
    for (const f of files.modules) this.sources.set(f.file, f.source);
    const build = () => engineFromFiles(files, { v0Compatible: this.v0 });
    return m ? m.time("rego_module_compile", build) : build();
  }

  private tracer(): EventTracer {
    const listeners: TraceListener[] = [];
    if (this.explain) listeners.push((e) => this.events.push(e));
    if (this.profiler) listeners.push(this.profiler.listener);
    if (this.coverage) listeners.push(this.coverage.listener);
    if (this.metrics && this.instrument) listeners.push(instrumentListener(this.metrics));
    // The query's compile time ends where its evaluation starts.
    return new EventTracer(listeners, () => {
      this.evalStart = process.hrtime.bigint();
    });
  }

  /** Evaluates the query with the listeners attached. */
  async query(engine: PolicyEngine, query: string, options: QueryOptions): Promise<QueryResult[]> {
    this.sources.set("query", query);
    const m = this.metrics;
    if (m) m.time("rego_query_parse", () => parseQuery(query));
    this.queryStart = process.hrtime.bigint();
    this.evalStart = 0n;
    try {
      return await engine.queryAsync(query, { ...options, tracer: this.tracer() });
    } finally {
      if (m) {
        const end = process.hrtime.bigint();
        const start = this.evalStart === 0n ? end : this.evalStart;
        m.add("timer_rego_query_compile_ns", Number(start - this.queryStart));
        m.add("timer_rego_query_eval_ns", Number(end - start));
      }
    }
  }

  private coverageReport() {
    const modules = (this.files?.modules ?? []).map((f) => parseModule(f.file, f.source, this.v0));
    return this.coverage?.report(modules);
  }

  /** The trace of `--explain` alone (printed before an evaluation error). */
  traceText(): string {
    return this.explain ? prettyTrace(explainEvents(this.events, this.explain), this.sources) : "";
  }

  /** Results plus the sections asked for, in the format asked for. */
  render(results: QueryResult[], format: EvalFormat): string {
    const events = this.explain ? explainEvents(this.events, this.explain) : [];
    const profile = this.profiler?.report(this.profile.sort, this.profile.limit);
    const coverage = this.coverageReport();
    if (format === "json") {
      const extras: [string, unknown][] = [];
      if (this.metrics) extras.push(["metrics", this.metrics.toJSON()]);
      if (events.length > 0) extras.push(["explanation", traceJson(events, this.sources)]);
      if (profile && profile.length > 0) extras.push(["profile", profile]);
      if (coverage) extras.push(["coverage", coverage]);
      return withKeys(formatEvalResults(results, "json"), extras);
    }
    if (format !== "pretty") return formatEvalResults(results, format);
    let out = events.length > 0 ? prettyTrace(events, this.sources) : "";
    out += formatEvalResults(results, "pretty");
    if (this.metrics) out += this.metrics.table();
    if (profile) out += profileTable(profile);
    if (coverage) out += textTable([], [["Overall Coverage", coverage.coverage.toFixed(2)]]);
    return out;
  }
}

/** Adds keys after those of an indented JSON object text (kept as is: its number text). */
function withKeys(objectText: string, extras: [string, unknown][]): string {
  if (extras.length === 0) return objectText;
  const text = objectText.trimEnd();
  const inner = text === "{}" ? "" : text.slice(1, -1).trimEnd();
  const added = extras.map(
    ([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v, null, 2).replace(/\n/g, "\n  ")}`,
  );
  return `{${inner}${inner ? ",\n" : "\n"}${added.join(",\n")}\n}\n`;
}
