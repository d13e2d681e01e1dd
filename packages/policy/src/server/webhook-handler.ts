/**
 * OPA's v0 webhook: `POST /v0/data/<path>` takes the body itself as the input and answers
 * the bare value; an undefined document is 404 `undefined_document`.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { MAX_YAML_DEPTH } from "../builtins/yaml-codec.js";
import { parseJsonValue, parseYamlValue } from "../loader/data-document.js";
import { jsonTextDepthExceeds, valueDepthExceeds, yamlNestingExceeds } from "../value/depth.js";
import { toJSON, type Value } from "../value/value.js";
import { badRequest, inputTooDeep, undefinedDocument, yamlInputTooDeep } from "./api-error.js";
import { dataPath } from "./data-handler.js";
import { boolParam } from "./query-params.js";
import { readBody } from "./request-body.js";
import { sendJson } from "./respond.js";
import { inputDepthLimit, type RequestTarget, type ServerContext } from "./server-context.js";

export function parseInput(
  req: IncomingMessage,
  text: string,
  maxDepth: number,
): Value | undefined {
  if (/^\s*$/.test(text)) return undefined;
  const yaml = /yaml/i.test(req.headers["content-type"] ?? "");
  if (!yaml && jsonTextDepthExceeds(text, maxDepth)) throw inputTooDeep(maxDepth);
  if (yaml && yamlNestingExceeds(text, MAX_YAML_DEPTH)) throw yamlInputTooDeep();
  let input: Value;
  try {
    input = yaml ? parseYamlValue(text) : parseJsonValue(text);
  } catch (e) {
    throw badRequest(`body contains malformed input document: ${(e as Error).message}`);
  }
  if (yaml && valueDepthExceeds(input, maxDepth)) throw inputTooDeep(maxDepth);
  return input;
}

/** Serves POST /v0/data and below. */
export async function handleWebhook(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  target: RequestTarget,
): Promise<void> {
  const path = dataPath(target.pathname);
  const text = (await readBody(req, ctx.maxBodyBytes)).toString("utf8");
  const input = parseInput(req, text, inputDepthLimit(ctx));
  const value = ctx.engine.evalRef(path, {
    input,
    timeoutMs: ctx.evalTimeoutMs > 0 ? ctx.evalTimeoutMs : undefined,
    maxCollectionSize: ctx.maxCollectionSize,
  });
  if (value === undefined) {
    throw undefinedDocument(`document missing: data${path.map((p) => `.${p}`).join("")}`);
  }
  sendJson(res, 200, toJSON(value), boolParam(target.params, "pretty"));
}
