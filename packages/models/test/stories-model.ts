import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { digestOfFile } from "../src/store/blob-store.js";
import { postJson, STORIES_PATH } from "./harness.js";

/** Uploads the shared stories260K GGUF and creates `name` from it (extra create fields allowed). */
export async function createStories(
  url: string,
  name: string,
  extra: Record<string, unknown> = {},
): Promise<void> {
  const digest = await digestOfFile(STORIES_PATH);
  const up = await fetch(`${url}/api/blobs/${digest}`, {
    method: "POST",
    body: await readFile(STORIES_PATH),
  });
  assert.ok(up.status === 201 || up.status === 200, `blob upload: ${up.status}`);
  const created = await postJson(`${url}/api/create`, {
    model: name,
    files: { "stories260K.gguf": digest },
    stream: false,
    ...extra,
  });
  assert.equal(created.status, 200, created.text);
}

/** Reads an NDJSON stream's objects. */
export async function ndjsonLines(res: Response): Promise<Array<Record<string, unknown>>> {
  const text = await res.text();
  return text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** Reads an SSE stream's `data:` objects (without the final [DONE]). */
export async function sseEvents(res: Response): Promise<Array<Record<string, unknown>>> {
  const text = await res.text();
  return text
    .split("\n")
    .filter((l) => l.startsWith("data: ") && l !== "data: [DONE]")
    .map((l) => JSON.parse(l.slice(6)) as Record<string, unknown>);
}

/** POSTs JSON and returns the raw response (for streams). */
export function post(url: string, body: unknown): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
}
