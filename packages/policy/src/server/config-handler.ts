/**
 * `GET /v1/config`: the active configuration as `{"result": ...}`, with service credentials
 * and key material removed and the default decisions filled in, as OPA answers it.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { publicConfig } from "../plugins/config-file.js";
import { routeNotFound } from "./api-error.js";
import { boolParam } from "./query-params.js";
import { sendJson } from "./respond.js";
import type { RequestTarget, ServerContext } from "./server-context.js";

/** Serves GET /v1/config. */
export function handleConfig(
  ctx: ServerContext,
  _req: IncomingMessage,
  res: ServerResponse,
  target: RequestTarget,
): void {
  if (target.pathname !== "") throw routeNotFound();
  const result = ctx.management?.publicConfig() ?? publicConfig(undefined, {});
  sendJson(res, 200, { result }, boolParam(target.params, "pretty"));
}
