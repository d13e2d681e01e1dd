/**
 * Reads a request body with a size limit. Bodies over the limit are drained (so the client
 * can read the 413 answer) but not kept; a gzip body is inflated within the same limit.
 */
import type { IncomingMessage } from "node:http";
import { gunzipSync } from "node:zlib";
import { badRequest, bodyTooLarge } from "./api-error.js";

/** Past this many bytes of an oversized body the connection is cut instead of drained. */
const DRAIN_FACTOR = 16;

/** Collects the body; rejects with ApiError (413 or 400) when it cannot be used. */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
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
      if (tooLarge) return reject(bodyTooLarge());
      const raw = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
      if (!/gzip/i.test(req.headers["content-encoding"] ?? "")) return resolve(raw);
      try {
        resolve(gunzipSync(raw, { maxOutputLength: limit }));
      } catch (e) {
        const code = (e as { code?: string }).code;
        reject(
          code === "ERR_BUFFER_TOO_LARGE"
            ? bodyTooLarge("compressed request body too large")
            : badRequest(`error(s) occurred while decoding request: ${(e as Error).message}`),
        );
      }
    });
    req.on("error", reject);
  });
}
