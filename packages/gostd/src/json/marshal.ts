/** encoding/json's Marshal of Go values (see fmt/value.ts), and decoding into `any`. */

import { sortedKeys } from "../fmt/print.js";
import {
  GoFloat,
  GoNamed,
  GoStruct,
  isTrue,
  NIL_SLICE,
  numberOf,
  underlying,
} from "../fmt/value.js";
import { formatFloat } from "../strconv/float.js";

const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\"',
  "\\": "\\\\",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  // Go 1.22 and later write these two short too.
  "\b": "\\b",
  "\f": "\\f",
};

/**
 * A string as Go's encoding/json writes it: control characters, U+2028 and U+2029 escaped,
 * and with `escapeHTML` (json.Marshal's default; an Encoder may turn it off) also `<`, `>`
 * and `&`. A lone surrogate becomes U+FFFD: our strings come from decoded JSON, and Go's
 * decoder has already replaced such an escape by that rune, which its encoder writes as is.
 */
export function jsonString(s: string, escapeHTML = true): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const ch = s[i] as string;
    const short = SHORT_ESCAPES[ch];
    if (short !== undefined) out += short;
    else if (c >= 0xd800 && c <= 0xdfff) {
      const next = s.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) out += ch + s[++i];
      else out += "\ufffd";
    } else if (c < 0x20 || c === 0x2028 || c === 0x2029 || (escapeHTML && "<>&".includes(ch)))
      out += `\\u${c.toString(16).padStart(4, "0")}`;
    else out += ch;
  }
  return `${out}"`;
}

function isEmptyValue(v: unknown): boolean {
  const u = underlying(v);
  if (u instanceof GoStruct) return false;
  return !isTrue(u);
}

/** encoding/json.Marshal; throws on values JSON cannot hold (NaN, infinities). */
export function goJson(v: unknown): string {
  if ((v instanceof GoStruct || v instanceof GoNamed) && v.type.marshal)
    return goJson(v.type.marshal(v));
  const u = underlying(v);
  if (u === undefined || u === null || u === NIL_SLICE) return "null";
  if (typeof u === "string") return jsonString(u);
  if (typeof u === "boolean") return String(u);
  if (typeof u === "number" || u instanceof GoFloat) {
    const n = numberOf(u);
    if (!Number.isFinite(n)) throw new Error(`json: unsupported value: ${formatFloat(n)}`);
    return String(n);
  }
  if (u instanceof Uint8Array) return jsonString(Buffer.from(u).toString("base64"));
  if (Array.isArray(u)) return `[${u.map((e) => goJson(e)).join(",")}]`;
  if (u instanceof GoStruct) {
    const parts: string[] = [];
    for (const f of u.type.fields ?? []) {
      const value = u.fields[f.name];
      if (f.omitEmpty && isEmptyValue(value)) continue;
      parts.push(`${jsonString(f.json)}:${goJson(value)}`);
    }
    return `{${parts.join(",")}}`;
  }
  const m = u as Record<string, unknown>;
  return `{${sortedKeys(m)
    .map((k) => `${jsonString(k)}:${goJson(m[k])}`)
    .join(",")}}`;
}

/** A value decoded from JSON as Go decodes into `any`: numbers become float64. */
export function fromJson(v: unknown): unknown {
  if (typeof v === "number") return new GoFloat(v);
  if (Array.isArray(v)) return v.map(fromJson);
  if (typeof v === "object" && v !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, e] of Object.entries(v)) out[k] = fromJson(e);
    return out;
  }
  return v;
}
