/** Go's strconv quoting: Quote, QuoteToASCII, IsPrint and CanBackquote. */

/** Go's strconv.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
export function isPrintable(ch: string): boolean {
  return /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u.test(ch);
}

/** Go's strconv.Quote: printable code points stay, the rest become escapes. */
export function goQuote(s: string, asciiOnly = false): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    if (ch === '"' || ch === "\\") out += `\\${ch}`;
    else if (cp >= 0x20 && cp < 0x7f) out += ch;
    else if (cp === 0x07) out += "\\a";
    else if (cp === 0x08) out += "\\b";
    else if (cp === 0x0c) out += "\\f";
    else if (cp === 0x0a) out += "\\n";
    else if (cp === 0x0d) out += "\\r";
    else if (cp === 0x09) out += "\\t";
    else if (cp === 0x0b) out += "\\v";
    else if (!asciiOnly && cp > 0x7f && isPrintable(ch)) out += ch;
    else if (cp < 0x80) out += `\\x${cp.toString(16).padStart(2, "0")}`;
    else if (cp < 0x10000) out += `\\u${cp.toString(16).padStart(4, "0")}`;
    else out += `\\U${cp.toString(16).padStart(8, "0")}`;
  }
  return `${out}"`;
}

/** Go's strconv.CanBackquote: no backquote and no control characters but tab. */
export function canBackquote(s: string): boolean {
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    if (ch === "`" || c === 0x7f || (c < 0x20 && c !== 0x09)) return false;
  }
  return true;
}
