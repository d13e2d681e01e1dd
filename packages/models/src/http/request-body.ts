// Reads a JSON request body within the size limit, and typed optional fields of it.
import type { IncomingMessage } from "node:http";
import { LlmsrvError } from "../errors.js";

/** 413 naming the limit (and the declared size when the client sent one). */
export function bodyTooLarge(limit: number, declared?: number): LlmsrvError {
  const size = declared === undefined ? "" : ` ${declared} bytes,`;
  return new LlmsrvError(
    "body_too_large",
    `request body too large:${size} over the limit of ${limit} bytes (LLMSRV_MAX_BODY_BYTES)`,
  );
}

/**
 * Reads the whole body as text. A declared Content-Length over `limit` is refused before
 * reading; a body that grows past it (chunked) stops the read at once: the data read so far
 * is dropped and the request is paused, so the server holds at most `limit` bytes.
 */
export function readBodyText(req: IncomingMessage, limit: number): Promise<string> {
  const declared = Number(req.headers["content-length"] ?? Number.NaN);
  if (declared > limit) return Promise.reject(bodyTooLarge(limit, declared));
  return new Promise((resolve, reject) => {
    let chunks: Buffer[] = [];
    let size = 0;
    const settle = (error: Error | undefined) => {
      req.off("data", onData).off("end", onEnd).off("error", settle).off("close", onClose);
      if (error) reject(error);
      else resolve(Buffer.concat(chunks, size).toString("utf8"));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else {
        chunks = [];
        req.pause();
        settle(bodyTooLarge(limit));
      }
    };
    const onEnd = () => settle(undefined);
    // The client went away before the end of its body.
    const onClose = () => settle(new LlmsrvError("request_canceled", "request canceled"));
    req.on("data", onData).on("end", onEnd).on("error", settle).on("close", onClose);
  });
}

/**
 * Parses a JSON object body. Empty body: 400 `missing request body`; malformed JSON or a
 * non-object: 400 naming the problem.
 */
export function parseJsonObject(text: string): Record<string, unknown> {
  if (text.trim() === "") throw new LlmsrvError("invalid_json", "missing request body");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new LlmsrvError("invalid_json", `invalid JSON in request body: ${(e as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new LlmsrvError("invalid_json", "request body must be a JSON object");
  }
  return value as Record<string, unknown>;
}

/** Reads an optional string field; 400 when present with another type. */
export function optionalString(body: Record<string, unknown>, field: string): string | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string")
    throw new LlmsrvError("bad_request", `field "${field}" must be a string`);
  return v;
}

/** Reads an optional boolean field; 400 when present with another type. */
export function optionalBool(body: Record<string, unknown>, field: string): boolean | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "boolean")
    throw new LlmsrvError("bad_request", `field "${field}" must be a boolean`);
  return v;
}
