/**
 * The Data API: `GET|POST /v1/data[/<path>]` evaluates `data.<path>` (a package path gives
 * the package's rule values) and answers `{"result": ...}`, leaving `result` out when the
 * document is undefined. `?pretty`, `?metrics`, `?instrument`, `?explain`, `?provenance` and
 * `?strict-builtin-errors` apply. The evaluation runs where `ctx.evaluations` runs it (the
 * worker pool, or the main thread); the input is parsed there too.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { RegoError } from "../errors.js";
import { indentJsonText } from "../value/json-text.js";
import { badRequest } from "./api-error.js";
import { isYamlRequest } from "./data-input.js";
import { type DataJob, exactJson, JobFailure, type JobResult } from "./eval-job.js";
import { insightParams, jobLimits, provenance, wantsMetrics } from "./eval-params.js";
import { boolParam } from "./query-params.js";
import { collectBody } from "./request-body.js";
import { sendJsonText } from "./respond.js";
import { evaluationsOf, type RequestTarget, type ServerContext } from "./server-context.js";

const API_USAGE_WARNING = {
  code: "api_usage_warning",
  message: "'input' key missing from the request",
};

/**
 * The data reference of a URL path below the route: segments split on `/`, empty ones
 * skipped, each percent-decoded. Segments stay strings: the engine reads a digit string as
 * an array index when the document there is an array, and as a key of an object otherwise.
 */
export function dataPath(pathname: string): string[] {
  const hit = pathCache.get(pathname);
  if (hit) return hit;
  const path = parseDataPath(pathname);
  // Clients ask the same few decision paths again and again; keep their parsed form.
  if (pathCache.size >= PATH_CACHE_SIZE) pathCache.clear();
  pathCache.set(pathname, path);
  return path;
}

const PATH_CACHE_SIZE = 1024;
const pathCache = new Map<string, string[]>();

function parseDataPath(pathname: string): string[] {
  const out: string[] = [];
  for (const raw of pathname.split("/")) {
    if (raw === "") continue;
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      throw badRequest(`invalid path: ${pathname}`);
    }
    if (segment.includes('"')) throw badRequest(`invalid path: ${pathname}`);
    out.push(segment);
  }
  return out;
}

function elapsedNs(since: bigint): number {
  return Number(process.hrtime.bigint() - since);
}

/** Logs the decision when logging is on; returns its id. */
function logDecision(
  ctx: ServerContext,
  req: IncomingMessage,
  path: readonly string[],
  outcome: { input: unknown; result?: unknown; metrics: Record<string, number>; error?: unknown },
): string | undefined {
  if (!ctx.decisionLogger) return undefined;
  const error =
    outcome.error instanceof RegoError
      ? { code: outcome.error.code, message: outcome.error.message }
      : undefined;
  return ctx.decisionLogger.record({
    path: path.join("/"),
    input: outcome.input,
    result: outcome.result,
    metrics: outcome.metrics,
    requestedBy: `${req.socket.remoteAddress ?? ""}:${req.socket.remotePort ?? ""}`,
    headers: req.headers,
    error,
  });
}

/** The job of a data request; `body`: the POST body, undefined for a GET. */
function dataJob(
  ctx: ServerContext,
  req: IncomingMessage,
  target: RequestTarget,
  path: string[],
  body: string | undefined,
): DataJob {
  const params = target.params;
  const logged = ctx.decisionLogger !== undefined;
  return {
    kind: "data",
    path,
    body,
    yaml: body !== undefined && isYamlRequest(req),
    inputParam: body === undefined ? lastInput(params) : undefined,
    wantInput: logged,
    limits: jobLimits(ctx, params),
    insight: insightParams(params, logged),
  };
}

function lastInput(params: URLSearchParams): string | undefined {
  if (!params.has("input")) return undefined;
  const all = params.getAll("input");
  return all[all.length - 1];
}

/**
 * The answer's JSON text, keys in OPA's order (provenance, metrics, result, warning,
 * decision_id, explanation); the result goes in as the text the evaluation wrote.
 */
function answerText(parts: {
  provenance?: unknown;
  metrics?: Record<string, number>;
  resultText?: string;
  missingInputKey?: boolean;
  decisionId?: string;
  explanation?: unknown[];
}): string {
  const fields: string[] = [];
  if (parts.provenance) fields.push(`"provenance":${JSON.stringify(parts.provenance)}`);
  if (parts.metrics) fields.push(`"metrics":${JSON.stringify(parts.metrics)}`);
  if (parts.resultText !== undefined) fields.push(`"result":${parts.resultText}`);
  if (parts.missingInputKey) fields.push(`"warning":${JSON.stringify(API_USAGE_WARNING)}`);
  if (parts.decisionId) fields.push(`"decision_id":${JSON.stringify(parts.decisionId)}`);
  if (parts.explanation) fields.push(`"explanation":${JSON.stringify(parts.explanation)}`);
  return `{${fields.join(",")}}\n`;
}

/**
 * Serves GET and POST on /v1/data and below. Callbacks all the way (body read, evaluation,
 * answer): no promise per stage on the hottest path of the server.
 */
export function handleData(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  target: RequestTarget,
): void {
  const start = process.hrtime.bigint();
  const path = dataPath(target.pathname);
  if (req.method !== "POST") {
    evaluate(ctx, req, res, target, dataJob(ctx, req, target, path, undefined), start);
    return;
  }
  collectBody(req, ctx.maxBodyBytes, (error, body) => {
    if (error) {
      target.fail(res, error);
      return;
    }
    const text = (body as Buffer).toString("utf8");
    evaluate(ctx, req, res, target, dataJob(ctx, req, target, path, text), start);
  });
}

/** Runs the job where decisions run and answers it; every error goes to `target.fail`. */
function evaluate(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  target: RequestTarget,
  job: DataJob,
  start: bigint,
): void {
  evaluationsOf(ctx).submit(job, (error, result) => {
    try {
      if (error === undefined) answer(ctx, req, res, target, job, result as JobResult, start);
      else target.fail(res, failed(ctx, req, job, error));
    } catch (e) {
      target.fail(res, e);
    }
  });
}

/** The error to answer for a failed job; a failed evaluation is logged first. */
function failed(ctx: ServerContext, req: IncomingMessage, job: DataJob, error: unknown): unknown {
  if (!(error instanceof JobFailure)) return error;
  const input = error.input === undefined ? undefined : exactJson(error.input as string);
  logDecision(ctx, req, job.path, { input, metrics: error.metrics, error: error.error });
  return error.error;
}

/** Writes the answer of an evaluated job (and logs the decision when logging is on). */
function answer(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  target: RequestTarget,
  job: DataJob,
  result: JobResult,
  start: bigint,
): void {
  const params = target.params;
  const metrics = result.metrics ? { ...result.metrics } : undefined;
  if (metrics) metrics.timer_server_handler_ns = elapsedNs(start);
  const decisionId = ctx.decisionLogger
    ? logDecision(ctx, req, job.path, {
        input: result.input === undefined ? undefined : exactJson(result.input),
        result: result.resultText === undefined ? undefined : exactJson(result.resultText),
        metrics: metrics ?? {},
      })
    : undefined;
  const text = answerText({
    provenance: boolParam(params, "provenance") ? provenance(ctx) : undefined,
    metrics: wantsMetrics(params) ? metrics : undefined,
    resultText: result.resultText,
    missingInputKey: result.missingInputKey,
    decisionId,
    explanation: result.explanation,
  });
  sendJsonText(res, 200, boolParam(params, "pretty") ? indentJsonText(text.trimEnd()) : text);
}
