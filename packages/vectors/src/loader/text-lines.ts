/**
 * A file's lines as checked text. The file is read as bytes and split on "\n" before it is
 * decoded, so a line that is not valid UTF-8 is found (and reported with its number) instead
 * of being silently decoded to U+FFFD, and one bad line never touches its neighbours.
 */

/** One line of the file: its text, or why it has none. */
export type TextLine =
  | { readonly line: number; readonly text: string }
  | { readonly line: number; readonly problem: string };

/** Splits a byte stream on "\n" (dropping a "\r" before it); a line may span many chunks. */
export async function* byteLines(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  for await (const chunk of chunks) {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, nl);
      yield withoutCr(pending.length > 0 ? Buffer.concat([...pending, piece]) : piece);
      pending = [];
      start = nl + 1;
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  }
  if (pending.length > 0) yield withoutCr(Buffer.concat(pending));
}

function withoutCr(line: Buffer): Buffer {
  return line.length > 0 && line[line.length - 1] === 13 ? line.subarray(0, -1) : line;
}

/** UTF-8 length of one code point. */
function utf8Length(codePoint: number): number {
  if (codePoint < 0x80) return 1;
  if (codePoint < 0x800) return 2;
  return codePoint < 0x10000 ? 3 : 4;
}

/**
 * Offset of the first byte that is not valid UTF-8, or -1. `lenient` is the replacing decode
 * of `bytes`: up to the first bad sequence every character is its own encoding, so walking it
 * finds the first U+FFFD that the bytes do not spell out (EF BF BD).
 */
export function firstInvalidByte(bytes: Uint8Array, lenient: string): number {
  let offset = 0;
  for (const char of lenient) {
    const codePoint = char.codePointAt(0) as number;
    const real =
      codePoint !== 0xfffd ||
      (bytes[offset] === 0xef && bytes[offset + 1] === 0xbf && bytes[offset + 2] === 0xbd);
    if (!real) return offset;
    offset += utf8Length(codePoint);
  }
  return -1;
}

const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** Decodes one line (1-based `line`), or says where its UTF-8 is broken. */
export function decodeLine(bytes: Buffer, line: number): TextLine {
  const text = decoder.decode(bytes);
  if (text.includes("\uFFFD")) {
    const bad = firstInvalidByte(bytes, text);
    if (bad >= 0) {
      const hex = (bytes[bad] as number).toString(16).padStart(2, "0");
      return {
        line,
        problem: `not valid UTF-8 text (byte 0x${hex} at byte ${bad + 1} of the line)`,
      };
    }
  }
  return { line, text };
}

/** Numbers and decodes the lines of a byte stream. */
export async function* textLines(chunks: AsyncIterable<Buffer>): AsyncGenerator<TextLine> {
  let line = 0;
  for await (const bytes of byteLines(chunks)) yield decodeLine(bytes, ++line);
}
