/**
 * The input document of a data request, as OPA reads it: from the `input` query parameter
 * of a GET, or from the `input` key of a POST body (JSON, or YAML when the content type
 * says so). A POST whose body has no `input` key evaluates without input and is warned.
 */
import type { IncomingMessage } from "node:http";
import { parseJsonValue, parseYamlValue } from "../loader/data-document.js";
import { RegoObject, type Value } from "../value/value.js";
import { badRequest } from "./api-error.js";
import { lastParam } from "./query-params.js";
import { readBody } from "./request-body.js";

/** The input (undefined when none) and whether the body lacked the `input` key. */
export interface DataInput {
  input: Value | undefined;
  missingInputKey: boolean;
}

/** Reads `?input=` of a GET; malformed JSON is a 400. */
export function inputFromQuery(params: URLSearchParams): DataInput {
  const text = lastParam(params, "input");
  if (text === undefined) return { input: undefined, missingInputKey: false };
  try {
    return { input: parseJsonValue(text), missingInputKey: false };
  } catch (e) {
    throw badRequest(`parameter contains malformed input document: ${(e as Error).message}`);
  }
}

function parseBody(req: IncomingMessage, text: string): Value {
  const yaml = /yaml/i.test(req.headers["content-type"] ?? "");
  try {
    return yaml ? parseYamlValue(text) : parseJsonValue(text);
  } catch (e) {
    throw badRequest(`body contains malformed input document: ${(e as Error).message}`);
  }
}

/** Reads a POST body `{"input": ...}`; a non-object body is a 400, an empty one no input. */
export async function inputFromBody(req: IncomingMessage, limit: number): Promise<DataInput> {
  const raw = await readBody(req, limit);
  const text = raw.toString("utf8");
  if (text.trim() === "") return { input: undefined, missingInputKey: true };
  const doc = parseBody(req, text);
  if (doc === null) return { input: undefined, missingInputKey: true };
  if (!(doc instanceof RegoObject)) {
    throw badRequest(
      'body contains malformed input document: the request body must be a JSON object with an "input" key',
    );
  }
  const input = doc.get("input");
  return { input, missingInputKey: input === undefined };
}
