/**
 * One decision as plain data (an `EvalJob`), and `runJob`, which evaluates it on an engine.
 * Jobs and their results cross a worker-thread boundary, so both hold only structured-clone
 * values: the request body as text (parsed where it is evaluated), results as JSON text.
 * The same function runs inside the worker pool and, with `server.workers=0`, on the main
 * thread, so both modes answer alike.
 */
import type { PolicyEngine, QueryOptions } from "../engine.js";
import { parseJsonValue } from "../loader/data-document.js";
import { instrumentListener, Metrics } from "../trace/metrics.js";
import { type ExplainMode, explainEvents, prettyTrace, traceJson } from "../trace/pretty-trace.js";
import { EventTracer, type TraceEvent, type TraceListener } from "../trace/tracer.js";
import { compactJSONText } from "../value/compact-json.js";
import { jsonTextDepthExceeds } from "../value/depth.js";
import { jsonText } from "../value/json-text.js";
import { fromJSON, RegoObject, toJSON, type Value } from "../value/value.js";
import { badRequest, inputTooDeep, undefinedDocument } from "./api-error.js";
import { type DataInput, inputFromBodyText, inputFromQuery, parseInputText } from "./data-input.js";

/** Bounds and switches every evaluating job carries. */
export interface JobLimits {
  /** Bound on the evaluation; absent means none. */
  readonly timeoutMs?: number;
  readonly maxCollectionSize?: number;
  readonly maxInputDepth: number;
  readonly strict: boolean;
}

/** What the caller wants besides the value: timers, counters, a trace. */
export interface JobInsight {
  /** Measure the input parse and evaluation times (`metrics`, decision logs). */
  readonly timed: boolean;
  /** `instrument`: evaluation counters in the metrics. */
  readonly instrument: boolean;
  /** `explain`: the trace events this mode keeps. */
  readonly explain?: ExplainMode;
  /** `pretty` with `explain`: the trace as text lines instead of event objects. */
  readonly prettyExplain: boolean;
}

/** `GET|POST /v1/data/<path>`: the input comes from `?input=` or the body's `input` key. */
export interface DataJob {
  readonly kind: "data";
  /** Shared, never changed: the engine caches a path's parsed form by the array itself. */
  readonly path: string[];
  /** The POST body; undefined for a GET. */
  readonly body?: string;
  readonly yaml: boolean;
  /** The GET's `?input=` parameter. */
  readonly inputParam?: string;
  /** Return the input as JSON (for the decision log). */
  readonly wantInput: boolean;
  readonly limits: JobLimits;
  readonly insight: JobInsight;
}

/** `POST /` and `POST /v0/data/<path>`: the body is the input, the bare value the answer. */
export interface ValueJob {
  readonly kind: "value";
  readonly path: string[];
  readonly body: string;
  readonly yaml: boolean;
  /** `default`: `document undefined` when rules define the path; `webhook`: always missing. */
  readonly undefinedStyle: "default" | "webhook";
  readonly limits: JobLimits;
}

/** `GET|POST /v1/query`: the query text from `?q=` or the body `{"query", "input"}`. */
export interface QueryJob {
  readonly kind: "query";
  readonly query?: string;
  readonly body?: string;
  readonly limits: JobLimits;
  readonly insight: JobInsight;
}

/** `GET /health/<path>`: the value of `data.system.health.<path>`. */
export interface HealthJob {
  readonly kind: "health";
  readonly path: readonly string[];
  /** The input: the plugins' states (`plugin_state`, `plugins_ready`), as plain JSON. */
  readonly input?: unknown;
}

export type EvalJob = DataJob | ValueJob | QueryJob | HealthJob;

/** A job's answer: every value as JSON text (exact numbers), undefined when undefined. */
export interface JobResult {
  /** The value (data, value and health jobs) or the rows array (query jobs). */
  readonly resultText?: string;
  /** A data POST whose body had no `input` key. */
  readonly missingInputKey?: boolean;
  /** The input as JSON text, when the job asked for it (the decision log). */
  readonly input?: string;
  /** Timers and counters (nanoseconds), when the job was timed. */
  readonly metrics?: Record<string, number>;
  /** The trace, when the job asked for one. */
  readonly explanation?: unknown[];
}

/**
 * An evaluation error of a data job, carried with what the decision log records of a failed
 * decision (the input and the parse timer).
 */
export class JobFailure extends Error {
  constructor(
    readonly error: unknown,
    readonly input: unknown,
    readonly metrics: Record<string, number>,
  ) {
    super(error instanceof Error ? error.message : String(error));
    this.name = "JobFailure";
  }
}

/** The JSON data of JSON text for the server's JSON writer, numbers kept exact. */
export function exactJson(text: string): unknown {
  return toJSON(parseJsonValue(text));
}

/** JSON text of a value, numbers as written. */
export function valueText(value: Value): string {
  return compactJSONText(value) ?? jsonText(toJSON(value)).trimEnd();
}

function elapsedNs(since: bigint): number {
  return Number(process.hrtime.bigint() - since);
}

/** Engine sources by file name, for the trace's node texts. */
function sourceTexts(engine: PolicyEngine, query?: string): Map<string, string> {
  const sources = new Map<string, string>();
  for (const m of engine.moduleSources()) sources.set(m.file, m.source);
  if (query !== undefined) sources.set("query", query);
  return sources;
}

/** OPA's raw trace event: `op` in lower case. */
function rawTrace(events: readonly TraceEvent[], sources: Map<string, string>): unknown[] {
  return traceJson(events, sources).map((e) => {
    const event = e as Record<string, unknown>;
    return { ...event, op: String(event.op).toLowerCase() };
  });
}

/** Collects what `insight` asks for around one evaluation. */
class InsightRecorder {
  readonly metrics = new Metrics();
  private readonly events: TraceEvent[] = [];
  readonly tracer: EventTracer | undefined;

  constructor(private readonly insight: JobInsight) {
    const listeners: TraceListener[] = [];
    if (insight.explain) listeners.push((e) => this.events.push(e));
    if (insight.instrument) listeners.push(instrumentListener(this.metrics));
    this.tracer = listeners.length > 0 ? new EventTracer(listeners) : undefined;
  }

  explanation(sources: Map<string, string>): unknown[] | undefined {
    const mode = this.insight.explain;
    if (!mode) return undefined;
    const events = explainEvents(this.events, mode);
    if (this.insight.prettyExplain) return prettyTrace(events, sources).split("\n").slice(0, -1);
    return rawTrace(events, sources);
  }
}

/** The options of one evaluation, always of one shape (the evaluator reads them per query). */
function queryOptions(
  limits: JobLimits,
  input: Value | undefined,
  tracer?: EventTracer,
): QueryOptions {
  return {
    input,
    strictBuiltinErrors: limits.strict || undefined,
    timeoutMs: limits.timeoutMs,
    maxCollectionSize: limits.maxCollectionSize,
    tracer,
  };
}

async function runDataJob(engine: PolicyEngine, job: DataJob): Promise<JobResult> {
  const { insight } = job;
  const start = insight.timed ? process.hrtime.bigint() : 0n;
  const got: DataInput =
    job.body === undefined
      ? job.inputParam === undefined
        ? { input: undefined, missingInputKey: false }
        : inputFromQuery(new URLSearchParams([["input", job.inputParam]]), job.limits.maxInputDepth)
      : inputFromBodyText(job.body, job.yaml, job.limits.maxInputDepth);
  const parseNs = insight.timed ? elapsedNs(start) : 0;
  const input = job.wantInput && got.input !== undefined ? valueText(got.input) : undefined;
  const recorder = insight.explain || insight.instrument ? new InsightRecorder(insight) : undefined;
  const evalStart = insight.timed ? process.hrtime.bigint() : 0n;
  let value: Value | undefined;
  try {
    value = await engine.evalRefAsync(
      job.path,
      queryOptions(job.limits, got.input, recorder?.tracer),
    );
  } catch (error) {
    throw new JobFailure(error, input, insight.timed ? { timer_rego_input_parse_ns: parseNs } : {});
  }
  const result: {
    resultText?: string;
    missingInputKey?: boolean;
    input?: string;
    metrics?: Record<string, number>;
    explanation?: unknown[];
  } = {};
  if (value !== undefined) result.resultText = valueText(value);
  if (got.missingInputKey) result.missingInputKey = true;
  if (input !== undefined) result.input = input;
  if (insight.timed) {
    result.metrics = {
      ...recorder?.metrics.toJSON(),
      timer_rego_input_parse_ns: parseNs,
      timer_rego_query_eval_ns: elapsedNs(evalStart),
    };
  }
  const explanation = recorder?.explanation(sourceTexts(engine));
  if (explanation) result.explanation = explanation;
  return result;
}

/** True when rules define the document at `path` or below it. */
function rulesDefine(engine: PolicyEngine, path: readonly string[]): boolean {
  return engine
    .rulePaths()
    .some((r) => path.length <= r.path.length && path.every((k, i) => r.path[i] === k));
}

/** The 404 message of an undefined bare-value decision. */
function undefinedMessage(engine: PolicyEngine, job: ValueJob): string {
  const kind =
    job.undefinedStyle === "default" && rulesDefine(engine, job.path)
      ? "document undefined"
      : "document missing";
  return `${kind}: data${job.path.map((p) => `.${p}`).join("")}`;
}

async function runValueJob(engine: PolicyEngine, job: ValueJob): Promise<JobResult> {
  const input = parseInputText(job.body, job.yaml, job.limits.maxInputDepth);
  const value = await engine.evalRefAsync(job.path, queryOptions(job.limits, input));
  if (value === undefined) throw undefinedDocument(undefinedMessage(engine, job));
  return { resultText: valueText(value) };
}

/** The query and input of a `POST /v1/query` body. */
function queryFromBody(text: string, maxDepth: number): { query: string; input?: Value } {
  // The body wraps the input in one object: it may be one level deeper than the input.
  if (jsonTextDepthExceeds(text, maxDepth + 1)) throw inputTooDeep(maxDepth);
  let doc: Value;
  try {
    doc = text.trim() === "" ? new RegoObject() : parseJsonValue(text);
  } catch (e) {
    throw badRequest(`error(s) occurred while decoding request: ${(e as Error).message}`);
  }
  if (!(doc instanceof RegoObject))
    throw badRequest("error(s) occurred while decoding request: body must be an object");
  const query = doc.get("query");
  if (typeof query !== "string" || query === "") throw badRequest("missing required 'query' value");
  return { query, input: doc.get("input") };
}

async function runQueryJob(engine: PolicyEngine, job: QueryJob): Promise<JobResult> {
  const { query, input } =
    job.body !== undefined
      ? queryFromBody(job.body, job.limits.maxInputDepth)
      : { query: job.query ?? "", input: undefined };
  const { insight } = job;
  const recorder = insight.explain || insight.instrument ? new InsightRecorder(insight) : undefined;
  const start = insight.timed ? process.hrtime.bigint() : 0n;
  const results = await engine.queryAsync(query, queryOptions(job.limits, input, recorder?.tracer));
  const evalNs = insight.timed ? elapsedNs(start) : 0;
  const rows = results.map((r) => {
    const parts: string[] = [];
    for (const [name, value] of r.bindings) {
      if (name !== "_" && !name.startsWith("$"))
        parts.push(`${JSON.stringify(name)}:${valueText(value)}`);
    }
    return `{${parts.join(",")}}`;
  });
  const result: {
    resultText?: string;
    metrics?: Record<string, number>;
    explanation?: unknown[];
  } = {};
  if (rows.length > 0) result.resultText = `[${rows.join(",")}]`;
  if (insight.timed)
    result.metrics = { ...recorder?.metrics.toJSON(), timer_rego_query_eval_ns: evalNs };
  const explanation = recorder?.explanation(sourceTexts(engine, query));
  if (explanation) result.explanation = explanation;
  return result;
}

async function runHealthJob(engine: PolicyEngine, job: HealthJob): Promise<JobResult> {
  const input = job.input === undefined ? undefined : fromJSON(job.input);
  const value = await engine.evalRefAsync(["system", "health", ...job.path], { input });
  return value === undefined ? {} : { resultText: valueText(value) };
}

/** Evaluates `job` on `engine`; request errors (400) and evaluation errors are thrown. */
export function runJob(engine: PolicyEngine, job: EvalJob): Promise<JobResult> {
  switch (job.kind) {
    case "data":
      return runDataJob(engine, job);
    case "value":
      return runValueJob(engine, job);
    case "query":
      return runQueryJob(engine, job);
    case "health":
      return runHealthJob(engine, job);
  }
}
