/**
 * JSON text for responses, as Go's json.Encoder writes it: compact or indented by two
 * spaces, ending with a newline. Big integers (bigint) are written with every digit.
 */

import { unmarkNumberTexts } from "./decimal-number.js";
import { indentJsonWith } from "./indent-json.js";

function bigintReplacer(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? `\u0000big:${value}` : value;
}

/** Serialises plain JSON data (bigints allowed) and appends a newline. */
export function jsonText(data: unknown, pretty = false): string {
  const indent = pretty ? 2 : undefined;
  try {
    // The fast path: no bigint anywhere, so no replacer function slows the native encoder.
    return `${unmarkNumberTexts(JSON.stringify(data, null, indent))}\n`;
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    const text = JSON.stringify(data, bigintReplacer, indent);
    return `${unmarkNumberTexts(text)}\n`;
  }
}

/**
 * Compact JSON text indented by two spaces, as `jsonText(…, true)` writes it (empty objects
 * and arrays stay `{}` and `[]`), without parsing: numbers keep their text and keys their
 * order. Adds the final newline.
 */
export function indentJsonText(compact: string): string {
  return `${indentJsonWith(compact, "", "  ")}\n`;
}
