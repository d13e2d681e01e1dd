/**
 * The Data API: `GET|POST /v1/data[/<path>]` evaluates `data.<path>` (a package path gives
 * the package's rule values) and answers `{"result": ...}`, leaving `result` out when the
 * document is undefined. `?pretty`, `?metrics` and `?strict-builtin-errors` apply.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { RegoError } from "../errors.js";
import { compactJSONText } from "../value/compact-json.js";
import { toJSON, type Value } from "../value/value.js";
import { badRequest } from "./api-error.js";
import { type DataInput, inputFromBodyBytes, inputFromQuery } from "./data-input.js";
import { boolParam } from "./query-params.js";
import { collectBody } from "./request-body.js";
import { sendJson, sendJsonText } from "./respond.js";
import { inputDepthLimit, type RequestTarget, type ServerContext } from "./server-context.js";

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

interface Evaluation {
  value: Value | undefined;
  evalNs: number;
}

function evaluate(
  ctx: ServerContext,
  path: (string | number)[],
  input: Value | undefined,
  strict: boolean,
  timed: boolean,
): Evaluation {
  const start = timed ? process.hrtime.bigint() : 0n;
  const value = ctx.engine.evalRef(path, {
    input,
    strictBuiltinErrors: strict || undefined,
    timeoutMs: ctx.evalTimeoutMs > 0 ? ctx.evalTimeoutMs : undefined,
    maxCollectionSize: ctx.maxCollectionSize,
  });
  return { value, evalNs: timed ? elapsedNs(start) : 0 };
}

/** Logs the decision when logging is on; returns its id. */
function logDecision(
  ctx: ServerContext,
  req: IncomingMessage,
  path: (string | number)[],
  input: Value | undefined,
  outcome: { value?: Value; metrics: Record<string, number>; error?: unknown },
): string | undefined {
  if (!ctx.decisionLogger) return undefined;
  const error =
    outcome.error instanceof RegoError
      ? { code: outcome.error.code, message: outcome.error.message }
      : undefined;
  return ctx.decisionLogger.record({
    path: path.join("/"),
    input: input === undefined ? undefined : toJSON(input),
    result: outcome.value === undefined ? undefined : toJSON(outcome.value),
    metrics: outcome.metrics,
    requestedBy: `${req.socket.remoteAddress ?? ""}:${req.socket.remotePort ?? ""}`,
    error,
  });
}

/** Per-request settings read from the query string. */
interface DataRequest {
  path: (string | number)[];
  params: URLSearchParams;
  wantMetrics: boolean;
  /** Timers cost a little per request; they are taken only when someone will read them. */
  timed: boolean;
  start: bigint;
}

/** Evaluates and writes the answer for a request whose input is known. */
function answer(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  r: DataRequest,
  got: DataInput,
): void {
  const inputParseNs = r.timed ? elapsedNs(r.start) : 0;
  let evaluation: Evaluation;
  try {
    evaluation = evaluate(
      ctx,
      r.path,
      got.input,
      boolParam(r.params, "strict-builtin-errors"),
      r.timed,
    );
  } catch (error) {
    const metrics: Record<string, number> = {};
    if (r.timed) metrics.timer_rego_input_parse_ns = inputParseNs;
    logDecision(ctx, req, r.path, got.input, { metrics, error });
    throw error;
  }
  if (!r.timed && !got.missingInputKey && sendPlainResult(res, r, evaluation.value)) return;
  const metrics: Record<string, number> = {};
  if (r.timed) {
    metrics.timer_rego_input_parse_ns = inputParseNs;
    metrics.timer_rego_query_eval_ns = evaluation.evalNs;
    metrics.timer_server_handler_ns = elapsedNs(r.start);
  }
  const body: Record<string, unknown> = {};
  if (r.wantMetrics) body.metrics = metrics;
  if (evaluation.value !== undefined) body.result = toJSON(evaluation.value);
  if (got.missingInputKey) body.warning = API_USAGE_WARNING;
  const decisionId = logDecision(ctx, req, r.path, got.input, { value: evaluation.value, metrics });
  if (decisionId) body.decision_id = decisionId;
  sendJson(res, 200, body, boolParam(r.params, "pretty"));
}

/**
 * The common answer, `{"result": ...}` (or `{}`) with no metrics, warning or decision id,
 * written straight from the value. False when the general path must write it instead.
 */
function sendPlainResult(res: ServerResponse, r: DataRequest, value: Value | undefined): boolean {
  if (value === undefined) {
    if (boolParam(r.params, "pretty")) return false;
    sendJsonText(res, 200, "{}\n");
    return true;
  }
  const text = compactJSONText(value);
  if (text === undefined || boolParam(r.params, "pretty")) return false;
  sendJsonText(res, 200, `{"result":${text}}\n`);
  return true;
}

/**
 * Serves GET and POST on /v1/data and below. A POST answers from the body's end event,
 * without a promise: the answer is written at once, errors go through `target.fail`.
 */
export function handleData(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  target: RequestTarget,
): undefined {
  const params = target.params;
  const wantMetrics = boolParam(params, "metrics") || boolParam(params, "instrument");
  const timed = wantMetrics || ctx.decisionLogger !== undefined;
  const r: DataRequest = {
    path: dataPath(target.pathname),
    params,
    wantMetrics,
    timed,
    start: timed ? process.hrtime.bigint() : 0n,
  };
  if (req.method !== "POST") {
    answer(ctx, req, res, r, inputFromQuery(params, inputDepthLimit(ctx)));
    return undefined;
  }
  // Answered from the body's end event; failures go to the error path through target.fail.
  collectBody(req, ctx.maxBodyBytes, (error, raw) => {
    if (error) {
      target.fail(res, error);
      return;
    }
    try {
      answer(ctx, req, res, r, inputFromBodyBytes(req, raw as Buffer, inputDepthLimit(ctx)));
    } catch (e) {
      target.fail(res, e);
    }
  });
  return undefined;
}
