import type { IncomingMessage } from "node:http";
import { LlmsrvError } from "../errors.js";

/** Largest JSON body accepted (model blobs go through /api/blobs, which streams). */
const MAX_JSON_BYTES = 32 * 1024 * 1024;

/** Reads the whole body as text, refusing bodies over the limit. */
export async function readBodyText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_JSON_BYTES)
      throw new LlmsrvError("bad_request", `request body exceeds ${MAX_JSON_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
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
