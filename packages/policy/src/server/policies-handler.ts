/**
 * The Policy API, read side: `GET /v1/policies` lists the loaded policy files and
 * `GET /v1/policies/<id>` returns one, as `{"id", "raw"}` (OPA also sends its JSON AST, which
 * this engine does not produce). Policies are fixed at start-up: PUT and DELETE are 405.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { resourceNotFound } from "./api-error.js";
import { boolParam } from "./query-params.js";
import { sendJson } from "./respond.js";
import type { RequestTarget, ServerContext } from "./server-context.js";

/** Serves GET /v1/policies and /v1/policies/<id> (the id may contain slashes). */
export function handlePolicies(
  ctx: ServerContext,
  _req: IncomingMessage,
  res: ServerResponse,
  target: RequestTarget,
): void {
  const pretty = boolParam(target.params, "pretty");
  const policies = ctx.policies ?? [];
  const id = decodeURIComponent(target.pathname.replace(/^\//, ""));
  if (id === "") {
    sendJson(res, 200, { result: policies.map((p) => ({ id: p.file, raw: p.source })) }, pretty);
    return;
  }
  const found = policies.find((p) => p.file === id || p.file === `/${id}`);
  if (!found) throw resourceNotFound(`storage_not_found_error: policy id "${id}"`);
  sendJson(res, 200, { result: { id: found.file, raw: found.source } }, pretty);
}
