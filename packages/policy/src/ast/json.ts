/**
 * A module's OPA AST JSON as a Rego value, for `rego.parse_module` and the `ast` of
 * `GET /v1/policies`. OPA builds both by marshalling what ast.ParseModule returns with the
 * default JSON options: no locations, comments kept (their locations without text), no
 * annotations (ParseModule does not process METADATA). The encoding itself is opa-json.ts.
 */
import { parseNumberLiteral } from "../value/number.js";
import { fromJSON, type Value } from "../value/value.js";
import type { Module } from "./nodes.js";
import {
  type CommentAt,
  commentsJson,
  type JsonNode,
  OpaAstEncoder,
  RawNumber,
} from "./opa-json.js";

/** OPA's JSON form of a parsed module (written as `source`, with its `comments`), as a value. */
export function moduleToValue(m: Module, source: string, comments: CommentAt[]): Value {
  const enc = new OpaAstEncoder(source, { locations: false, comments: true, annotations: false });
  const json = enc.module(m);
  if (comments.length > 0) json.comments = commentsJson(m.file, source, comments, false);
  return fromJSON(plainJson(json));
}

/** The JSON tree with each number as OPA's ParseTerm reads it back: exact, as written. */
function plainJson(node: JsonNode): unknown {
  if (node instanceof RawNumber) return parseNumberLiteral(node.text) ?? Number(node.text);
  if (Array.isArray(node)) return node.map(plainJson);
  if (node !== null && typeof node === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) out[k] = plainJson(v);
    return out;
  }
  return node;
}
