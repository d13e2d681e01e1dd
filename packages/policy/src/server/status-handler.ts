/**
 * `GET /v1/status`: the status plugin's current report as `{"result": ...}`; without a
 * configured status plugin, OPA's 500 `internal_error` "status plugin not enabled".
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { routeNotFound } from "./api-error.js";
import { boolParam } from "./query-params.js";
import { sendJson } from "./respond.js";
import type { RequestTarget, ServerContext } from "./server-context.js";

/** Serves GET /v1/status. */
export function handleStatus(
  ctx: ServerContext,
  _req: IncomingMessage,
  res: ServerResponse,
  target: RequestTarget,
): void {
  if (target.pathname !== "") throw routeNotFound();
  const pretty = boolParam(target.params, "pretty");
  const report = ctx.management?.statusReport();
  if (!report) {
    sendJson(res, 500, { code: "internal_error", message: "status plugin not enabled" }, pretty);
    return;
  }
  sendJson(res, 200, { result: report }, pretty);
}
