/**
 * The Query API: `GET /v1/query?q=<rego>` and `POST /v1/query {"query", "input"?}` answer
 * `{"result": [ {<var>: value, ...}, ... ]}`, one object per solution, `result` left out
 * when there is none.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { parseJsonValue } from "../loader/data-document.js";
import { jsonTextDepthExceeds } from "../value/depth.js";
import { RegoObject, toJSON, type Value } from "../value/value.js";
import { badRequest, inputTooDeep } from "./api-error.js";
import { boolParam, lastParam } from "./query-params.js";
import { readBody } from "./request-body.js";
import { sendJson } from "./respond.js";
import { inputDepthLimit, type RequestTarget, type ServerContext } from "./server-context.js";

interface QueryRequest {
  query: string;
  input: Value | undefined;
}

async function queryFromBody(
  req: IncomingMessage,
  limit: number,
  maxDepth: number,
): Promise<QueryRequest> {
  const text = (await readBody(req, limit)).toString("utf8");
  // The body wraps the input in one object: it may be one level deeper than the input.
  if (jsonTextDepthExceeds(text, maxDepth + 1)) throw inputTooDeep(maxDepth);
  let doc: Value;
  try {
    doc = text.trim() === "" ? new RegoObject() : parseJsonValue(text);
  } catch (e) {
    throw badRequest(`error(s) occurred while decoding request: ${(e as Error).message}`);
  }
  if (!(doc instanceof RegoObject))
    throw badRequest("error(s) occurred while decoding request: body must be an object");
  const query = doc.get("query");
  if (typeof query !== "string" || query === "") throw badRequest("missing required 'query' value");
  return { query, input: doc.get("input") };
}

function queryFromParams(params: URLSearchParams): QueryRequest {
  const query = lastParam(params, "q");
  if (query === undefined || query === "") throw badRequest("missing parameter 'q'");
  return { query, input: undefined };
}

/** Serves GET and POST /v1/query. */
export async function handleQuery(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  target: RequestTarget,
): Promise<void> {
  const { query, input } =
    req.method === "POST"
      ? await queryFromBody(req, ctx.maxBodyBytes, inputDepthLimit(ctx))
      : queryFromParams(target.params);
  const results = ctx.engine.query(query, {
    input,
    strictBuiltinErrors: boolParam(target.params, "strict-builtin-errors") || undefined,
    timeoutMs: ctx.evalTimeoutMs > 0 ? ctx.evalTimeoutMs : undefined,
    maxCollectionSize: ctx.maxCollectionSize,
  });
  const rows = results.map((r) => {
    const row: Record<string, unknown> = {};
    for (const [name, value] of r.bindings) {
      if (name !== "_" && !name.startsWith("$")) row[name] = toJSON(value);
    }
    return row;
  });
  sendJson(res, 200, rows.length > 0 ? { result: rows } : {}, boolParam(target.params, "pretty"));
}
