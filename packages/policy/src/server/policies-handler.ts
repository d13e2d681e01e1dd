/**
 * The Policy API, read side: `GET /v1/policies` lists the loaded policy files and
 * `GET /v1/policies/<id>` returns one, as `{"id", "raw", "ast"}` with `ast` in OPA's JSON
 * AST form (`src/ast/json.ts`, as OPA marshals a parsed module). PUT and DELETE are in policy-write-handler.ts.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { moduleToValue } from "../ast/json.js";
import type { PolicySource } from "../loader/load-paths.js";
import { parsePolicy, policyNotFound } from "../store/policy-store.js";
import { moduleComments } from "../syntax/module-comments.js";
import { toJSON } from "../value/value.js";
import { badRequest } from "./api-error.js";
import { boolParam } from "./query-params.js";
import { sendJson } from "./respond.js";
import type { RequestTarget, ServerContext } from "./server-context.js";

/** The id a Policy API path names (it may contain slashes). */
export function policyId(pathname: string): string {
  const raw = pathname.replace(/^\//, "");
  try {
    return decodeURIComponent(raw);
  } catch {
    throw badRequest(`invalid policy id: ${raw}`);
  }
}

function policyJSON(p: PolicySource, v0: boolean): Record<string, unknown> {
  let ast: unknown;
  try {
    ast = toJSON(moduleToValue(parsePolicy(p, v0), p.source, moduleComments(p.file, p.source)));
  } catch {
    // Every served policy compiled once; should its text stop parsing, leave `ast` out.
    ast = undefined;
  }
  return ast === undefined ? { id: p.file, raw: p.source } : { id: p.file, raw: p.source, ast };
}

/** Serves GET /v1/policies and /v1/policies/<id>. */
export function handlePolicies(
  ctx: ServerContext,
  _req: IncomingMessage,
  res: ServerResponse,
  target: RequestTarget,
): void {
  const pretty = boolParam(target.params, "pretty");
  const policies = ctx.policies ?? [];
  const v0 = ctx.engine.options.v0Compatible ?? false;
  const id = policyId(target.pathname);
  if (id === "") {
    sendJson(res, 200, { result: policies.map((p) => policyJSON(p, v0)) }, pretty);
    return;
  }
  const found = policies.find((p) => p.file === id || p.file === `/${id}`);
  if (!found) throw policyNotFound(id);
  sendJson(res, 200, { result: policyJSON(found, v0) }, pretty);
}
