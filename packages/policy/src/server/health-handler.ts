/**
 * The Health API: `GET /health` answers 200 `{}` once a trivial query evaluates (on the
 * main thread: it must answer at once even while workers run slow decisions) and the
 * evaluation workers are there; `GET /health/<path>` evaluates `data.system.health.<path>`
 * where decisions are evaluated and is healthy only when true.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { dataPath } from "./data-handler.js";
import type { JobResult } from "./eval-job.js";
import { sendJson } from "./respond.js";
import { evaluationsOf, type RequestTarget, type ServerContext } from "./server-context.js";

/** Serves GET /health and /health/<path>. */
export async function handleHealth(
  ctx: ServerContext,
  _req: IncomingMessage,
  res: ServerResponse,
  target: RequestTarget,
): Promise<void> {
  const pretty = target.params.has("pretty");
  const sub = dataPath(target.pathname);
  if (sub.length === 0) {
    try {
      ctx.engine.query("x = 1");
      if (!evaluationsOf(ctx).alive()) throw new Error("evaluations stopped");
      sendJson(res, 200, {}, pretty);
    } catch {
      sendJson(res, 500, { error: "unable to perform evaluation" }, pretty);
    }
    return;
  }
  const name = `data.system.health.${sub.join(".")}`;
  let result: JobResult;
  try {
    result = await evaluationsOf(ctx).run({ kind: "health", path: sub });
  } catch {
    sendJson(res, 500, { error: `health check (${name}) returned unexpected value` }, pretty);
    return;
  }
  if (result.resultText === "true") sendJson(res, 200, {}, pretty);
  else if (result.resultText === undefined)
    sendJson(res, 500, { error: `health check (${name}) was undefined` }, pretty);
  else sendJson(res, 500, { error: `health check (${name}) returned unexpected value` }, pretty);
}
