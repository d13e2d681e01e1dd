/**
 * JSON text to Rego values for io.jwt and the JSON-schema builtins: the shared reader
 * (value/json-reader.ts), its errors worded as these builtins have always worded them,
 * "<what> at offset <n>", and numbers beyond float range kept as infinities.
 */
import { type JsonErrorAt, JsonSyntaxError } from "@quintet/gostd/json";
import { readJSON as readRegoJSON } from "../../value/json-reader.js";
import type { Value } from "../../value/value.js";

/** Parses one JSON document; throws SyntaxError with the offset of the problem. */
export function readJSON(text: string): Value {
  try {
    return readRegoJSON(text, { allowInfinity: true });
  } catch (e) {
    if (!(e instanceof JsonSyntaxError) || e.at === undefined) throw e;
    throw new SyntaxError(offsetWording(text, e));
  }
}

/** The message of a reader that matches whole tokens and then checks what follows. */
function offsetWording(text: string, e: JsonSyntaxError): string {
  const at = e.at as JsonErrorAt;
  const found = text[at.offset];
  switch (at.site) {
    case "value":
      if (found === undefined) return `unexpected end of JSON input at offset ${at.offset}`;
      return `invalid character ${JSON.stringify(found)} at offset ${at.offset}`;
    case "number":
      return `invalid number at offset ${at.tokenStart}`;
    case "string":
      return `invalid string at offset ${at.tokenStart}`;
    case "key":
      return `expected a string key at offset ${at.offset}`;
    case "colon":
      return `expected ':' at offset ${at.offset}`;
    // The character after an element is consumed before it is judged.
    case "after-element":
      return `expected ',' or ']' at offset ${at.offset + 1}`;
    case "after-member":
      return `expected ',' or '}' at offset ${at.offset + 1}`;
    case "after-top":
      return `unexpected text after the value at offset ${at.offset}`;
    case "depth":
      return `${e.message} at offset ${at.offset}`;
  }
}
