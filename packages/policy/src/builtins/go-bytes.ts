/**
 * Go strings are bytes: these helpers turn byte results (decoded base64, hex, URL escapes,
 * replacements that split characters) into JS strings as Go's would print, and quote them.
 */
import { goQuote } from "@quintet/gostd/strconv";

const strictUTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Bytes as a string the way Go's strings end up in JSON: valid UTF-8 decodes, and every byte
 * that does not start a valid sequence becomes U+FFFD on its own.
 */
export function goString(bytes: Buffer): string {
  try {
    return strictUTF8.decode(bytes);
  } catch {
    let out = "";
    for (let i = 0; i < bytes.length; ) {
      const width = utf8Width(bytes, i);
      out += width > 0 ? bytes.subarray(i, i + width).toString("utf8") : "\ufffd";
      i += Math.max(width, 1);
    }
    return out;
  }
}

/** Length of the valid UTF-8 sequence at `i`, or 0 when the byte there starts none. */
function utf8Width(b: Buffer, i: number): number {
  const c = b[i] as number;
  if (c < 0x80) return 1;
  const cont = (k: number, lo = 0x80, hi = 0xbf) => (b[i + k] ?? 0) >= lo && (b[i + k] ?? 0) <= hi;
  if (c >= 0xc2 && c <= 0xdf) return cont(1) ? 2 : 0;
  if (c >= 0xe0 && c <= 0xef) {
    const lo = c === 0xe0 ? 0xa0 : 0x80;
    const hi = c === 0xed ? 0x9f : 0xbf;
    return cont(1, lo, hi) && cont(2) ? 3 : 0;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    const lo = c === 0xf0 ? 0x90 : 0x80;
    const hi = c === 0xf4 ? 0x8f : 0xbf;
    return cont(1, lo, hi) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

/** Go's %q of raw bytes: valid characters quoted as strconv.Quote does, other bytes as \xNN. */
export function quoteBytes(bytes: Buffer): string {
  let out = "";
  for (let i = 0; i < bytes.length; ) {
    const width = utf8Width(bytes, i);
    if (width === 0) out += `\\x${(bytes[i] as number).toString(16).padStart(2, "0")}`;
    else out += goQuote(bytes.subarray(i, i + width).toString("utf8")).slice(1, -1);
    i += Math.max(width, 1);
  }
  return `"${out}"`;
}
