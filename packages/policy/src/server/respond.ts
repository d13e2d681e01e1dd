/** Writing JSON answers: status, content type and Go-encoder-like text. */
import type { ServerResponse } from "node:http";
import { jsonText } from "../value/json-text.js";

/** Sends plain JSON data (bigints allowed) with `status`. */
export function sendJson(res: ServerResponse, status: number, data: unknown, pretty = false): void {
  sendJsonText(res, status, jsonText(data, pretty));
}

/** Sends JSON text already written (ending with a newline, as `jsonText` ends). */
export function sendJsonText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}
