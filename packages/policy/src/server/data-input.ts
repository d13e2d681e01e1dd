/**
 * The input document of a data request, as OPA reads it: from the `input` query parameter
 * of a GET, or from the `input` key of a POST body (JSON, or YAML when the content type
 * says so). A POST whose body has no `input` key evaluates without input and is warned.
 */
import type { IncomingMessage } from "node:http";
import { JsonSyntaxError } from "@quintet/gostd/json";
import { MAX_YAML_DEPTH } from "../builtins/yaml-codec.js";
import { parseJsonValue, parseYamlValue } from "../loader/data-document.js";
import { jsonTextDepthExceeds, valueDepthExceeds, yamlNestingExceeds } from "../value/depth.js";
import { readJSON } from "../value/json-reader.js";
import { fromJSON, RegoObject, type Value } from "../value/value.js";
import { badRequest, inputTooDeep, yamlInputTooDeep } from "./api-error.js";
import { lastParam } from "./query-params.js";

/** The input (undefined when none) and whether the body lacked the `input` key. */
export interface DataInput {
  input: Value | undefined;
  missingInputKey: boolean;
}

/** Reads `?input=` of a GET; malformed JSON or input deeper than `maxDepth` is a 400. */
export function inputFromQuery(params: URLSearchParams, maxDepth: number): DataInput {
  const text = lastParam(params, "input");
  if (text === undefined) return { input: undefined, missingInputKey: false };
  if (jsonTextDepthExceeds(text, maxDepth)) throw inputTooDeep(maxDepth);
  try {
    return { input: parseJsonValue(text), missingInputKey: false };
  } catch (e) {
    throw badRequest(`parameter contains malformed input document: ${(e as Error).message}`);
  }
}

const YAML = /yaml/i;

/** Digit runs this long may not survive JSON.parse as floats; such bodies are read exactly. */
const LONG_NUMBER = /\d{16}/;

/**
 * Why Go's json.Decoder (which OPA reads bodies with) refuses `text`, in its words: JSON.parse
 * words the same faults differently. Undefined when the reader finds no syntax fault.
 */
function goDecoderError(text: string): Error | undefined {
  try {
    readJSON(text, { maxDepth: Number.POSITIVE_INFINITY });
  } catch (e) {
    if (!(e instanceof JsonSyntaxError)) return undefined;
    // A Decoder reports a text cut short as io.ErrUnexpectedEOF, where Unmarshal says
    // "unexpected end of JSON input".
    return e.message === "unexpected end of JSON input" ? new Error("unexpected EOF") : e;
  }
  return undefined;
}

function malformed(e: unknown): Error {
  return badRequest(`body contains malformed input document: ${(e as Error).message}`);
}

/**
 * The `input` member of a JSON body, converting only that member to a Rego value. The body
 * wraps the input in one object, so it may be one level deeper than the input.
 */
function inputFromJson(text: string, maxDepth: number): DataInput {
  const long = LONG_NUMBER.test(text);
  const direct = long ? undefined : readDirect(text, maxDepth + 1);
  if (direct !== undefined) return inputFromDocument(direct);
  if (jsonTextDepthExceeds(text, maxDepth + 1)) throw inputTooDeep(maxDepth);
  if (long) {
    let exact: Value;
    try {
      exact = parseJsonValue(text);
    } catch (e) {
      throw malformed(e);
    }
    return inputFromDocument(exact);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw malformed(goDecoderError(text) ?? e);
  }
  if (doc === null) return { input: undefined, missingInputKey: true };
  if (typeof doc !== "object" || Array.isArray(doc)) throw notAnObject();
  const raw = (doc as Record<string, unknown>).input;
  return raw === undefined
    ? { input: undefined, missingInputKey: true }
    : { input: fromJSON(raw), missingInputKey: false };
}

/**
 * The body read straight into Rego values, in one pass (cheaper than JSON.parse followed by
 * fromJSON). Undefined sends the body down the JSON.parse path: malformed text, so that
 * the 400 keeps its wording, and `\u` escapes, whose lone surrogates JSON.parse keeps as
 * they are while the reader follows Go.
 */
function readDirect(text: string, maxDepth: number): Value | undefined {
  if (text.includes("\\u")) return undefined;
  try {
    return readJSON(text, { maxDepth });
  } catch {
    return undefined;
  }
}

function notAnObject(): Error {
  return badRequest(
    'body contains malformed input document: the request body must be a JSON object with an "input" key',
  );
}

function inputFromDocument(doc: Value): DataInput {
  if (doc === null) return { input: undefined, missingInputKey: true };
  if (!(doc instanceof RegoObject)) throw notAnObject();
  const input = doc.get("input");
  return { input, missingInputKey: input === undefined };
}

/**
 * Reads a POST body `{"input": ...}`: JSON, or YAML when `yaml` (the content type says so).
 * A non-object body is a 400; an empty or `null` body means no input (and a warning).
 */
export function inputFromBodyText(text: string, yaml: boolean, maxDepth: number): DataInput {
  if (/^\s*$/.test(text)) return { input: undefined, missingInputKey: true };
  if (!yaml) return inputFromJson(text, maxDepth);
  // The YAML parser recurses per level: deep text is refused before it reaches it.
  if (yamlNestingExceeds(text, MAX_YAML_DEPTH)) throw yamlInputTooDeep();
  let doc: Value;
  try {
    doc = parseYamlValue(text);
  } catch (e) {
    throw malformed(e);
  }
  const read = inputFromDocument(doc);
  if (read.input !== undefined && valueDepthExceeds(read.input, maxDepth)) {
    throw inputTooDeep(maxDepth);
  }
  return read;
}

/** True when a request's content type says its body is YAML. */
export function isYamlRequest(req: IncomingMessage): boolean {
  return YAML.test(req.headers["content-type"] ?? "");
}

/** The body as the input document (JSON, or YAML when `yaml`); blank means no input. */
export function parseInputText(text: string, yaml: boolean, maxDepth: number): Value | undefined {
  if (/^\s*$/.test(text)) return undefined;
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
