/**
 * The Policy API, write side: `PUT /v1/policies/<id>` (the body is Rego text) adds or
 * replaces a policy and `DELETE /v1/policies/<id>` removes one. Each change is compiled with
 * every other policy loaded and refused whole with OPA's 400 and its `errors` when anything
 * breaks (`invalid_parameter` for PUT, `invalid_operation` for a DELETE that leaves another
 * module uncompilable). Success is `200 {}`, or `{"metrics": …}` with `?metrics`.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { methodNotAllowed } from "./api-error.js";
import { policyId } from "./policies-handler.js";
import { boolParam } from "./query-params.js";
import { readBody } from "./request-body.js";
import { sendJson } from "./respond.js";
import { type RequestTarget, type ServerContext, storeOf } from "./server-context.js";

function answer(res: ServerResponse, target: RequestTarget, start: bigint): void {
  const body: Record<string, unknown> = {};
  if (boolParam(target.params, "metrics")) {
    body.metrics = { timer_server_handler_ns: Number(process.hrtime.bigint() - start) };
  }
  sendJson(res, 200, body, boolParam(target.params, "pretty"));
}

/** Serves PUT and DELETE on /v1/policies/<id>. */
export async function handlePolicyWrite(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  target: RequestTarget,
): Promise<void> {
  const start = process.hrtime.bigint();
  const id = policyId(target.pathname);
  // OPA routes writes only below /v1/policies/: the collection itself takes GET alone.
  if (id === "") {
    req.resume();
    throw methodNotAllowed();
  }
  if (req.method === "DELETE") {
    req.resume();
    storeOf(ctx).deletePolicy(id);
    answer(res, target, start);
    return;
  }
  const source = (await readBody(req, ctx.maxBodyBytes)).toString("utf8");
  storeOf(ctx).putPolicy(id, source);
  answer(res, target, start);
}
