/**
 * OPA's default decision: `POST /` evaluates `data.system.main` (or the configured
 * `default_decision`) with the request body as the input and answers the bare value, as the
 * v0 webhook does; the SDKs' `evaluateDefault` calls it. Undefined is 404
 * `undefined_document`: `document undefined: data.x` when rules define the path, `document
 * missing: data.x` when nothing does. As in OPA, only `pretty` applies: the bare value has
 * no place for `metrics`, `provenance` or an explanation.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { indentJsonText } from "../value/json-text.js";
import { isYamlRequest } from "./data-input.js";
import { jobLimits } from "./eval-params.js";
import { boolParam } from "./query-params.js";
import { readBody } from "./request-body.js";
import { sendJsonText } from "./respond.js";
import { evaluationsOf, type RequestTarget, type ServerContext } from "./server-context.js";

/** OPA's default `default_decision`. */
export const DEFAULT_DECISION: readonly string[] = ["system", "main"];

/** Sends a bare JSON value written by the evaluation, indented with `pretty`. */
export function sendValueText(res: ServerResponse, text: string, pretty: boolean): void {
  sendJsonText(res, 200, pretty ? indentJsonText(text) : `${text}\n`);
}

/** Serves POST /. */
export async function handleDefaultDecision(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  target: RequestTarget,
): Promise<void> {
  const body = (await readBody(req, ctx.maxBodyBytes)).toString("utf8");
  const result = await evaluationsOf(ctx).run({
    kind: "value",
    path: [...(ctx.defaultDecision ?? DEFAULT_DECISION)],
    body,
    yaml: isYamlRequest(req),
    undefinedStyle: "default",
    limits: jobLimits(ctx, new URLSearchParams()),
  });
  sendValueText(res, result.resultText ?? "null", boolParam(target.params, "pretty"));
}
