/**
 * JSON text for responses, as Go's json.Encoder writes it: compact or indented by two
 * spaces, ending with a newline. Big integers (bigint) are written with every digit.
 */

import { unmarkNumberTexts } from "../value/decimal-number.js";

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
  let out = "";
  let depth = 0;
  let inString = false;
  const newline = () => `\n${"  ".repeat(depth)}`;
  for (let i = 0; i < compact.length; i++) {
    const c = compact[i] as string;
    if (inString) {
      out += c;
      if (c === "\\") out += compact[++i] ?? "";
      else if (c === '"') inString = false;
      continue;
    }
    switch (c) {
      case '"':
        inString = true;
        out += c;
        break;
      case "{":
      case "[": {
        const close = c === "{" ? "}" : "]";
        if (compact[i + 1] === close) {
          out += c + close;
          i++;
        } else {
          depth++;
          out += c + newline();
        }
        break;
      }
      case "}":
      case "]":
        depth--;
        out += newline() + c;
        break;
      case ",":
        out += `,${newline()}`;
        break;
      case ":":
        out += ": ";
        break;
      default:
        out += c;
    }
  }
  return `${out}\n`;
}
