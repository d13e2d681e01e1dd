/**
 * The Compile API: `POST /v1/compile {"query", "input"?, "unknowns"?, "options"?}` runs
 * partial evaluation and answers `{"result": {"queries": [...], "support": [...]}}` in OPA's
 * AST JSON, `{"result": {}}` when the query can never hold. `unknowns` defaults to
 * `["input"]`; `options.disableInlining` lists refs whose rules are never inlined;
 * `options.nondeterministicBuiltins` evaluates `time.now_ns` & co. instead of keeping them.
 * `?metrics` (or `?instrument`) adds the timers; `?pretty` indents.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { type JsonObject, stringifyAst } from "../ast/opa-json.js";
import { parseJsonValue } from "../loader/data-document.js";
import { compactAst, partialJson } from "../partial/partial-output.js";
import { parseUnknowns } from "../partial/unknowns.js";
import { jsonTextDepthExceeds } from "../value/depth.js";
import { RegoObject, type Value } from "../value/value.js";
import { badRequest, inputTooDeep, routeNotFound } from "./api-error.js";
import { boolParam } from "./query-params.js";
import { readBody } from "./request-body.js";
import { sendJsonText } from "./respond.js";
import { inputDepthLimit, type RequestTarget, type ServerContext } from "./server-context.js";

interface CompileRequest {
  query: string;
  input: Value | undefined;
  unknowns: string[] | undefined;
  disableInlining: string[] | undefined;
  nondeterministicBuiltins: boolean;
}

function decodeError(message: string) {
  return badRequest(`error(s) occurred while decoding request: ${message}`);
}

/** A list of strings, or undefined when absent; anything else is a decoding error. */
function stringList(v: Value | undefined, name: string): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.some((x) => typeof x !== "string"))
    throw decodeError(`${name} must be an array of strings`);
  return v as string[];
}

/** A boolean option: absent or null is false; anything but a boolean is a decoding error. */
function flag(v: Value | undefined): boolean {
  if (v === undefined || v === null) return false;
  if (typeof v !== "boolean")
    throw decodeError("options.nondeterministicBuiltins must be a boolean");
  return v;
}

async function compileRequest(
  req: IncomingMessage,
  limit: number,
  maxDepth: number,
): Promise<CompileRequest> {
  const text = (await readBody(req, limit)).toString("utf8");
  if (jsonTextDepthExceeds(text, maxDepth + 1)) throw inputTooDeep(maxDepth);
  let doc: Value;
  try {
    // An empty body is the decoder's end of input, as Go's decoder reports it.
    if (text.trim() === "") throw new Error("EOF");
    doc = parseJsonValue(text);
  } catch (e) {
    throw decodeError((e as Error).message);
  }
  if (!(doc instanceof RegoObject)) throw decodeError("body must be an object");
  const query = doc.get("query") ?? "";
  if (typeof query !== "string") throw decodeError("query must be a string");
  if (query.trim() === "") throw badRequest("missing required 'query' value");
  const unknowns = stringList(doc.get("unknowns"), "unknowns");
  try {
    // Checked here so that the message names the unknowns, not the query, as OPA's does.
    parseUnknowns(unknowns ?? []);
  } catch (e) {
    throw badRequest(`error(s) occurred while parsing unknowns: ${(e as Error).message}`);
  }
  const options = doc.get("options");
  if (options !== undefined && options !== null && !(options instanceof RegoObject))
    throw decodeError("options must be an object");
  return {
    query,
    input: doc.get("input"),
    unknowns,
    disableInlining: stringList(options?.get("disableInlining"), "options.disableInlining"),
    nondeterministicBuiltins: flag(options?.get("nondeterministicBuiltins")),
  };
}

function elapsedNs(since: bigint): number {
  return Number(process.hrtime.bigint() - since);
}

/** Serves POST /v1/compile. */
export async function handleCompile(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  target: RequestTarget,
): Promise<void> {
  // OPA's newer `/v1/compile/{path}` (data-filter targets) is not served.
  if (target.pathname !== "") throw routeNotFound();
  const start = process.hrtime.bigint();
  const request = await compileRequest(req, ctx.maxBodyBytes, inputDepthLimit(ctx));
  const parsedAt = process.hrtime.bigint();
  const result = ctx.engine.partial(request.query, {
    input: request.input,
    unknowns: request.unknowns,
    disableInlining: request.disableInlining,
    nondeterministicBuiltins: request.nondeterministicBuiltins,
    timeoutMs: ctx.evalTimeoutMs > 0 ? ctx.evalTimeoutMs : undefined,
    maxCollectionSize: ctx.maxCollectionSize,
  });
  const body: JsonObject = {};
  if (boolParam(target.params, "metrics") || boolParam(target.params, "instrument")) {
    // As OPA's handlers: metrics before the result, in nanoseconds.
    body.metrics = {
      timer_rego_input_parse_ns: Number(parsedAt - start),
      timer_rego_partial_eval_ns: elapsedNs(parsedAt),
      timer_server_handler_ns: elapsedNs(start),
    };
  }
  body.result = partialJson(result);
  const pretty = boolParam(target.params, "pretty");
  sendJsonText(res, 200, `${pretty ? stringifyAst(body) : compactAst(body)}\n`);
}
