/**
 * One embedding as an OpenAI-compatible endpoint sends it: a JSON array of numbers, or, when
 * asked with `encoding_format: "base64"`, the base64 of its little-endian float32 values (a
 * third of the bytes, and no decimal text to write or parse).
 */

const base64Text = /^[A-Za-z0-9+/]*={0,2}$/;

/** The vector in `value`; undefined when it is missing, empty, malformed or not finite. */
export function decodeEmbedding(value: unknown): number[] | undefined {
  if (typeof value === "string") return fromBase64(value);
  if (!Array.isArray(value) || value.length === 0) return undefined;
  return value.every((x) => typeof x === "number" && Number.isFinite(x)) ? value : undefined;
}

function fromBase64(text: string): number[] | undefined {
  // Buffer.from skips characters outside the alphabet: check the text first, so that a
  // damaged answer is refused rather than read as other numbers.
  if (text.length === 0 || text.length % 4 !== 0 || !base64Text.test(text)) return undefined;
  const bytes = Buffer.from(text, "base64");
  if (bytes.length % 4 !== 0) return undefined;
  const out = new Array<number>(bytes.length / 4);
  for (let i = 0; i < out.length; i++) {
    const x = bytes.readFloatLE(i * 4);
    if (!Number.isFinite(x)) return undefined;
    out[i] = x;
  }
  return out;
}
