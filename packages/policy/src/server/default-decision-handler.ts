/**
 * OPA's default decision: `POST /` evaluates `data.system.main` (or the configured
 * `default_decision`) with the request body as the input and answers the bare value, as the
 * v0 webhook does; the SDKs' `evaluateDefault` calls it. Undefined is 404
 * `undefined_document`: `document undefined: data.x` when rules define the path, `document
 * missing: data.x` when nothing does.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { PolicyEngine } from "../engine.js";
import { toJSON } from "../value/value.js";
import { undefinedDocument } from "./api-error.js";
import { boolParam } from "./query-params.js";
import { readBody } from "./request-body.js";
import { sendJson } from "./respond.js";
import { inputDepthLimit, type RequestTarget, type ServerContext } from "./server-context.js";
import { parseInput } from "./webhook-handler.js";

/** OPA's default `default_decision`. */
export const DEFAULT_DECISION: readonly string[] = ["system", "main"];

/** True when rules define the document at `path` or below it. */
function rulesDefine(engine: PolicyEngine, path: readonly string[]): boolean {
  return engine
    .rulePaths()
    .some((r) => path.length <= r.path.length && path.every((k, i) => r.path[i] === k));
}

/** The 404 body's message for an undefined decision at `path`. */
export function undefinedMessage(engine: PolicyEngine, path: readonly string[]): string {
  const kind = rulesDefine(engine, path) ? "document undefined" : "document missing";
  return `${kind}: data${path.map((p) => `.${p}`).join("")}`;
}

/** Serves POST /. */
export async function handleDefaultDecision(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  target: RequestTarget,
): Promise<void> {
  const path = [...(ctx.defaultDecision ?? DEFAULT_DECISION)];
  const text = (await readBody(req, ctx.maxBodyBytes)).toString("utf8");
  const input = parseInput(req, text, inputDepthLimit(ctx));
  // One read of the engine: the decision sees one state even if a write lands meanwhile.
  const engine = ctx.engine;
  const value = engine.evalRef(path, {
    input,
    timeoutMs: ctx.evalTimeoutMs > 0 ? ctx.evalTimeoutMs : undefined,
    maxCollectionSize: ctx.maxCollectionSize,
  });
  if (value === undefined) throw undefinedDocument(undefinedMessage(engine, path));
  sendJson(res, 200, toJSON(value), boolParam(target.params, "pretty"));
}
