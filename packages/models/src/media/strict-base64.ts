// Decodes standard base64 as strictly as Go's encoding/json does for a []byte field.

/** Why a string is not standard base64, as Go words it, or undefined when it is. */
export type Base64Result = { bytes: Uint8Array } | { error: string };

const ALPHABET = /[A-Za-z0-9+/]/;

/**
 * Decodes `text` with the standard alphabet and `=` padding (Go's base64.StdEncoding, which
 * Ollama's `images` field goes through): carriage returns and line feeds are skipped, any
 * other character outside the alphabet, missing padding or data after padding is refused
 * with Go's message `illegal base64 data at input byte N`. Node's own decoder would
 * silently skip bad characters and accept the URL-safe alphabet.
 */
export function decodeStrictBase64(text: string): Base64Result {
  let count = 0;
  let padding = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === "\r" || c === "\n") continue;
    if (c === "=") {
      // Padding may only complete the last group of four.
      if (count % 4 < 2 || padding >= 2) return illegal(i);
      padding++;
    } else if (padding > 0 || !ALPHABET.test(c)) return illegal(i);
    count++;
  }
  if (count % 4 !== 0) return illegal(text.length);
  return { bytes: new Uint8Array(Buffer.from(text.replace(/[\r\n]/g, ""), "base64")) };
}

function illegal(offset: number): Base64Result {
  return { error: `illegal base64 data at input byte ${offset}` };
}
