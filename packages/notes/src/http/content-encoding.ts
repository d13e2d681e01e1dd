/**
 * Request bodies are read as sent: a compressed body (`Content-Encoding: gzip`, `br`, ...) would
 * reach the form parser as binary and come out as a bogus "Invalid note !!!". No browser
 * compresses a form, so any encoding but `identity` is refused with 415, naming it.
 */
import type { FastifyRequest } from "fastify";
import { NotesError } from "../errors.js";

/** Longest piece of the header quoted back, so the message stays a message. */
const MAX_QUOTED = 40;

/** The Content-Encoding a request's body is refused for, or undefined when it is plain. */
export function unsupportedEncoding(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const codings = (Array.isArray(header) ? header.join(",") : header)
    .split(",")
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== "" && coding !== "identity");
  if (codings.length === 0) return undefined;
  const named = codings.join(", ");
  return named.length > MAX_QUOTED ? `${named.slice(0, MAX_QUOTED)}…` : named;
}

/** onRequest hook: throws `unsupported_encoding` (415) before a compressed body is read. */
export async function contentEncodingHook(request: FastifyRequest): Promise<void> {
  const encoding = unsupportedEncoding(request.headers["content-encoding"]);
  if (encoding === undefined) return;
  throw new NotesError(
    "unsupported_encoding",
    `Unsupported Content-Encoding: ${encoding} !!! Send the form uncompressed.`,
  );
}
