/**
 * The Data API: `GET|POST /v1/data[/<path>]` evaluates `data.<path>` (a package path gives
 * the package's rule values) and answers `{"result": ...}`, leaving `result` out when the
 * document is undefined. `?pretty`, `?metrics` and `?strict-builtin-errors` apply.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { RegoError } from "../errors.js";
import { toJSON, type Value } from "../value/value.js";
import { badRequest } from "./api-error.js";
import { type DataInput, inputFromBody, inputFromQuery } from "./data-input.js";
import { boolParam } from "./query-params.js";
import { sendJson } from "./respond.js";
import type { RequestTarget, ServerContext } from "./server-context.js";

const API_USAGE_WARNING = {
  code: "api_usage_warning",
  message: "'input' key missing from the request",
};

/**
 * The data reference of a URL path below the route: segments split on `/`, empty ones
 * skipped, each percent-decoded; an integer segment becomes a number key, as in OPA.
 */
export function dataPath(pathname: string): (string | number)[] {
  const out: (string | number)[] = [];
  for (const raw of pathname.split("/")) {
    if (raw === "") continue;
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      throw badRequest(`invalid path: ${pathname}`);
    }
    if (segment.includes('"')) throw badRequest(`invalid path: ${pathname}`);
    out.push(
      /^-?\d+$/.test(segment) && Number.isSafeInteger(Number(segment)) ? Number(segment) : segment,
    );
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
): Evaluation {
  const start = process.hrtime.bigint();
  const value = ctx.engine.evalRef(path, {
    input,
    strictBuiltinErrors: strict || undefined,
    timeoutMs: ctx.evalTimeoutMs > 0 ? ctx.evalTimeoutMs : undefined,
  });
  return { value, evalNs: elapsedNs(start) };
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

/** Serves GET and POST on /v1/data and below. */
export async function handleData(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  target: RequestTarget,
): Promise<void> {
  const start = process.hrtime.bigint();
  const path = dataPath(target.pathname);
  const params = target.params;
  const parseStart = process.hrtime.bigint();
  const got: DataInput =
    req.method === "POST" ? await inputFromBody(req, ctx.maxBodyBytes) : inputFromQuery(params);
  const metrics: Record<string, number> = { timer_rego_input_parse_ns: elapsedNs(parseStart) };
  let evaluation: Evaluation;
  try {
    evaluation = evaluate(ctx, path, got.input, boolParam(params, "strict-builtin-errors"));
  } catch (error) {
    logDecision(ctx, req, path, got.input, { metrics, error });
    throw error;
  }
  metrics.timer_rego_query_eval_ns = evaluation.evalNs;
  metrics.timer_server_handler_ns = elapsedNs(start);
  const body: Record<string, unknown> = {};
  if (boolParam(params, "metrics") || boolParam(params, "instrument")) body.metrics = metrics;
  if (evaluation.value !== undefined) body.result = toJSON(evaluation.value);
  if (got.missingInputKey) body.warning = API_USAGE_WARNING;
  const decisionId = logDecision(ctx, req, path, got.input, { value: evaluation.value, metrics });
  if (decisionId) body.decision_id = decisionId;
  sendJson(res, 200, body, boolParam(params, "pretty"));
}
