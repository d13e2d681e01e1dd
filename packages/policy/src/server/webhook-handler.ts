/**
 * OPA's v0 webhook: `POST /v0/data/<path>` takes the body itself as the input and answers
 * the bare value; an undefined document is 404 `undefined_document`.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { dataPath } from "./data-handler.js";
import { isYamlRequest } from "./data-input.js";
import { sendValueText } from "./default-decision-handler.js";
import { jobLimits } from "./eval-params.js";
import { boolParam } from "./query-params.js";
import { readBody } from "./request-body.js";
import { evaluationsOf, type RequestTarget, type ServerContext } from "./server-context.js";

/** Serves POST /v0/data and below. */
export async function handleWebhook(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  target: RequestTarget,
): Promise<void> {
  const path = dataPath(target.pathname);
  const body = (await readBody(req, ctx.maxBodyBytes)).toString("utf8");
  const result = await evaluationsOf(ctx).run({
    kind: "value",
    path,
    body,
    yaml: isYamlRequest(req),
    undefinedStyle: "webhook",
    limits: jobLimits(ctx, new URLSearchParams()),
  });
  sendValueText(res, result.resultText ?? "null", boolParam(target.params, "pretty"));
}
