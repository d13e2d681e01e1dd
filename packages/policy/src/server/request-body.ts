/**
 * Reads a request body with a size limit. Bodies over the limit are drained (so the client
 * can read the 413 answer) but not kept; a gzip body is inflated within the same limit.
 */
import type { IncomingMessage } from "node:http";
import { gunzipSync } from "node:zlib";
import { badRequest, bodyTooLarge } from "./api-error.js";

const GZIP = /gzip/i;

/** Past this many bytes of an oversized body the connection is cut instead of drained. */
const DRAIN_FACTOR = 16;

/** Receives the collected body, or the ApiError (413 or 400) that stops it. */
export type BodyCallback = (error: Error | undefined, body?: Buffer) => void;

function finish(req: IncomingMessage, raw: Buffer, limit: number, done: BodyCallback): void {
  if (!GZIP.test(req.headers["content-encoding"] ?? "")) {
    done(undefined, raw);
    return;
  }
  let inflated: Buffer;
  try {
    inflated = gunzipSync(raw, { maxOutputLength: limit });
  } catch (e) {
    const code = (e as { code?: string }).code;
    done(
      code === "ERR_BUFFER_TOO_LARGE"
        ? bodyTooLarge("compressed request body too large")
        : badRequest(`error(s) occurred while decoding request: ${(e as Error).message}`),
    );
    return;
  }
  done(undefined, inflated);
}

/**
 * Collects the body and calls `done` once, from the request's end event (or its first
 * error), so that the answer can be written at once, without a trip through the promise
 * queue (measurably cheaper).
 */
export function collectBody(req: IncomingMessage, limit: number, then: BodyCallback): void {
  let called = false;
  const done: BodyCallback = (error, body) => {
    if (called) return;
    called = true;
    then(error, body);
  };
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  req.on("data", (chunk: Buffer) => {
    size += chunk.length;
    if (size > limit) {
      tooLarge = true;
      chunks.length = 0;
      if (size > limit * DRAIN_FACTOR) req.destroy();
      return;
    }
    chunks.push(chunk);
  });
  req.on("end", () => {
    if (tooLarge) {
      done(bodyTooLarge());
      return;
    }
    finish(req, chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks), limit, done);
  });
  req.on("error", (e) => done(e));
}

/** Collects the body; rejects with ApiError (413 or 400) when it cannot be used. */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    collectBody(req, limit, (error, body) => (error ? reject(error) : resolve(body as Buffer)));
  });
}
