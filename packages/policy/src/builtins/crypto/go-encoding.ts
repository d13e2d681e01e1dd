/**
 * Base64 and PEM decoding with Go's rules and error wording ("illegal base64 data at input
 * byte N"), which OPA's crypto and JWT builtins surface in their messages.
 */

const STD = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

function decodeMap(alphabet: string): Int16Array {
  const m = new Int16Array(256).fill(-1);
  for (let i = 0; i < alphabet.length; i++) m[alphabet.charCodeAt(i)] = i;
  return m;
}

const stdMap = decodeMap(STD);
const urlMap = decodeMap(URL);

const corrupt = (at: number) => new Error(`illegal base64 data at input byte ${at}`);
const isNewline = (b: number | undefined) => b === 10 || b === 13;

/** Decodes padded base64 (standard or URL alphabet) as Go's base64 package does. */
export function goBase64Decode(text: string, url = false): Buffer {
  const src = Buffer.from(text, "utf8");
  const map = url ? urlMap : stdMap;
  const out: number[] = [];
  let si = 0;
  while (si < src.length) {
    const quantum: number[] = [];
    let padded = false;
    while (quantum.length < 4) {
      if (si === src.length) {
        if (quantum.length === 0) return Buffer.from(out);
        throw corrupt(si - quantum.length);
      }
      const b = src[si++] as number;
      const v = map[b] as number;
      if (v >= 0) {
        quantum.push(v);
        continue;
      }
      if (isNewline(b)) continue;
      if (b !== 61 || quantum.length < 2) throw corrupt(si - 1);
      if (quantum.length === 2) {
        while (si < src.length && isNewline(src[si])) si++;
        if (si === src.length) throw corrupt(src.length);
        if (src[si] !== 61) throw corrupt(si - 1);
        si++;
      }
      while (si < src.length && isNewline(src[si])) si++;
      if (si < src.length) throw corrupt(si);
      padded = true;
      break;
    }
    const [a = 0, b = 0, c = 0, d = 0] = quantum;
    const n = (a << 18) | (b << 12) | (c << 6) | d;
    out.push((n >> 16) & 0xff);
    if (quantum.length > 2) out.push((n >> 8) & 0xff);
    if (quantum.length > 3) out.push(n & 0xff);
    if (padded) break;
  }
  return Buffer.from(out);
}

/** OPA's base64url decoding: adds missing padding first (RFC 7515 appendix C). */
export function base64UrlDecodeLenient(text: string): Buffer {
  let s = text;
  if (!s.endsWith("=")) {
    const rem = s.length % 4;
    if (rem === 1) throw new Error(`illegal base64url string: ${s}`);
    if (rem === 2) s += "==";
    if (rem === 3) s += "=";
  }
  return goBase64Decode(s, true);
}

/** Unpadded base64url, as JWS compact serialisation uses. */
export function base64UrlEncode(data: Buffer | string): string {
  return Buffer.from(data).toString("base64url");
}

export interface PemBlock {
  type: string;
  bytes: Buffer;
}

/**
 * The first PEM block in `text` and the text after it, like Go's pem.Decode: a block whose
 * body is not valid base64 is skipped, and `rest` starts after the END line's line break.
 */
export function pemDecode(text: string): { block?: PemBlock; rest: string } {
  let from = 0;
  for (;;) {
    const begin = text.indexOf("-----BEGIN ", from);
    if (begin < 0 || (begin > 0 && text[begin - 1] !== "\n")) {
      if (begin < 0) return { rest: text };
      from = begin + 1;
      continue;
    }
    const typeEnd = text.indexOf("-----", begin + 11);
    const lineEnd = text.indexOf("\n", begin);
    if (typeEnd < 0 || (lineEnd >= 0 && typeEnd > lineEnd)) return { rest: text };
    const type = text.slice(begin + 11, typeEnd);
    const endMarker = `-----END ${type}-----`;
    const end = text.indexOf(endMarker, typeEnd);
    if (end < 0) return { rest: text };
    const body = text.slice(typeEnd + 5, end).replace(/^[^\n]*\n/, "");
    const afterEnd = text.slice(end + endMarker.length);
    const nl = afterEnd.indexOf("\n");
    const trailer = nl < 0 ? afterEnd : afterEnd.slice(0, nl);
    if (trailer.trim() !== "") {
      from = begin + 1;
      continue;
    }
    const rest = nl < 0 ? "" : afterEnd.slice(nl + 1);
    const b64 = body
      .split("\n")
      .filter((l) => !l.includes(":"))
      .join("")
      .replace(/[ \t\r]/g, "");
    try {
      return { block: { type, bytes: goBase64Decode(b64) }, rest };
    } catch {
      from = begin + 1;
    }
  }
}
