/**
 * The Health API: `GET /health` answers 200 `{}` once a trivial query evaluates;
 * `GET /health/<path>` evaluates `data.system.health.<path>` and is healthy only when true.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { dataPath } from "./data-handler.js";
import { sendJson } from "./respond.js";
import type { RequestTarget, ServerContext } from "./server-context.js";

/** Serves GET /health and /health/<path>. */
export function handleHealth(
  ctx: ServerContext,
  _req: IncomingMessage,
  res: ServerResponse,
  target: RequestTarget,
): void {
  const pretty = target.params.has("pretty");
  const sub = dataPath(target.pathname);
  if (sub.length === 0) {
    try {
      ctx.engine.query("x = 1");
      sendJson(res, 200, {}, pretty);
    } catch {
      sendJson(res, 500, { error: "unable to perform evaluation" }, pretty);
    }
    return;
  }
  const name = `data.system.health.${sub.join(".")}`;
  let value: unknown;
  try {
    value = ctx.engine.evalRef(["system", "health", ...sub], { input: undefined });
  } catch {
    sendJson(res, 500, { error: `health check (${name}) returned unexpected value` }, pretty);
    return;
  }
  if (value === true) sendJson(res, 200, {}, pretty);
  else if (value === undefined)
    sendJson(res, 500, { error: `health check (${name}) was undefined` }, pretty);
  else sendJson(res, 500, { error: `health check (${name}) returned unexpected value` }, pretty);
}
