/**
 * The Query API: `GET /v1/query?q=<rego>` and `POST /v1/query {"query", "input"?}` answer
 * `{"result": [ {<var>: value, ...}, ... ]}`, one object per solution, `result` left out
 * when there is none. `?metrics`, `?instrument`, `?explain` and `?pretty` apply, as in OPA.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { indentJsonText } from "../value/json-text.js";
import { badRequest } from "./api-error.js";
import { insightParams, jobLimits, wantsMetrics } from "./eval-params.js";
import { boolParam, lastParam } from "./query-params.js";
import { readBody } from "./request-body.js";
import { sendJsonText } from "./respond.js";
import { evaluationsOf, type RequestTarget, type ServerContext } from "./server-context.js";

/** Serves GET and POST /v1/query. */
export async function handleQuery(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  target: RequestTarget,
): Promise<void> {
  const params = target.params;
  const start = process.hrtime.bigint();
  let query: string | undefined;
  let body: string | undefined;
  if (req.method === "POST") body = (await readBody(req, ctx.maxBodyBytes)).toString("utf8");
  else {
    query = lastParam(params, "q");
    if (query === undefined || query === "") throw badRequest("missing parameter 'q'");
  }
  const result = await evaluationsOf(ctx).run({
    kind: "query",
    query,
    body,
    limits: jobLimits(ctx, params),
    insight: insightParams(params, false),
  });
  const fields: string[] = [];
  if (wantsMetrics(params) && result.metrics) {
    const metrics = {
      ...result.metrics,
      timer_server_handler_ns: Number(process.hrtime.bigint() - start),
    };
    fields.push(`"metrics":${JSON.stringify(metrics)}`);
  }
  if (result.resultText !== undefined) fields.push(`"result":${result.resultText}`);
  if (result.explanation) fields.push(`"explanation":${JSON.stringify(result.explanation)}`);
  const text = `{${fields.join(",")}}\n`;
  sendJsonText(res, 200, boolParam(params, "pretty") ? indentJsonText(text.trimEnd()) : text);
}
