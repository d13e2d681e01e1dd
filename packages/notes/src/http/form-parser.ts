/**
 * Our parser of `application/x-www-form-urlencoded` bodies (what every HTML form here sends),
 * in place of `@fastify/formbody`'s. It differs in one way that matters: a value whose bytes
 * (raw or percent-encoded) are not valid UTF-8 is not silently turned into U+FFFD (which would store something the visitor never
 * typed) but into `UNDECODABLE`, which `text-rules.ts` refuses like any other ill-formed
 * text, so the field gets its own 400 message. The first value of a repeated field wins.
 */
import type { FastifyInstance } from "fastify";

/**
 * Stands for a value that could not be decoded: a lone surrogate, which no valid UTF-8
 * decodes to, so "well-formed text" checks refuse it with everything else that is ill-formed.
 */
export const UNDECODABLE = "\uDFFF";

/** Strict UTF-8: a malformed sequence throws instead of becoming U+FFFD; a BOM is kept. */
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const HEX_PAIR = /^[0-9a-fA-F]{2}$/;

/**
 * Decodes one name or value given as its raw bytes (one char per byte): `+` is a space, `%XY`
 * a byte, and the bytes must be UTF-8. `UNDECODABLE` when they are not, or a `%` is malformed.
 */
export function decodeFormComponent(raw: string): string {
  const bytes = Buffer.from(raw, "latin1");
  let length = 0;
  for (let i = 0; i < raw.length; i++, length++) {
    const c = raw.charCodeAt(i);
    if (c === 0x2b) bytes[length] = 0x20;
    else if (c !== 0x25) bytes[length] = c;
    else {
      const hex = raw.slice(i + 1, i + 3);
      if (!HEX_PAIR.test(hex)) return UNDECODABLE;
      bytes[length] = Number.parseInt(hex, 16);
      i += 2;
    }
  }
  try {
    return UTF8.decode(bytes.subarray(0, length));
  } catch {
    return UNDECODABLE;
  }
}

/** Parses a urlencoded body (its bytes) into a prototype-free object of strings. */
export function parseForm(body: Buffer): Record<string, string> {
  const fields: Record<string, string> = Object.create(null);
  // latin1 maps each byte to one char, so splitting on & and = never cuts a character.
  for (const pair of body.toString("latin1").split("&")) {
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    const name = decodeFormComponent(eq < 0 ? pair : pair.slice(0, eq));
    const value = decodeFormComponent(eq < 0 ? "" : pair.slice(eq + 1));
    if (!(name in fields)) fields[name] = value;
  }
  return fields;
}

/** Registers the parser for urlencoded bodies on `app`. */
export function registerFormParser(app: FastifyInstance): void {
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "buffer" },
    (_request, body, done) => done(null, parseForm(body as Buffer)),
  );
}
