import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { skipUnlessProvided } from "@quintet/kit/testing";
import { type LlmsrvConfig, loadConfig } from "../src/config.js";
import { createLogger } from "../src/logger.js";
import { type RunningServer, type StartOptions, startServer } from "../src/server.js";

/** Where the shared real test model lives, relative to the repository. */
export const STORIES_PATH = resolve(
  fileURLToPath(new URL(".", import.meta.url)),
  "../../../../../shared/models/stories260K.gguf",
);

/** Ollama's built-in templates and their renderings, beside the repository (`../shared`). */
export const OLLAMA_TEMPLATES_DIR = resolve(
  fileURLToPath(new URL(".", import.meta.url)),
  "../../../../../shared/ollama-templates",
);

/**
 * The `skip` option of real-model tests: the reason when the model is absent, else undefined.
 * Call it where the test is defined (a failing test joins the skip under QUINTET_REQUIRE_ALL=1).
 */
export function storiesSkip(): string | undefined {
  return skipUnlessProvided(
    existsSync(STORIES_PATH) ? undefined : `real test model absent at ${STORIES_PATH}`,
  );
}

/** A server on an ephemeral port with its own temporary store. */
export interface TestServer extends RunningServer {
  modelsDir: string;
  stop(): Promise<void>;
}

/** A test server's configuration: store `modelsDir`, port 0, one thread, silent logs. */
export function testConfig(modelsDir: string, env: Record<string, string> = {}): LlmsrvConfig {
  return loadConfig({
    LLMSRV_HOST: "127.0.0.1:0",
    LLMSRV_MODELS: modelsDir,
    LLMSRV_NUM_THREAD: "1",
    LLMSRV_LOG_LEVEL: "silent",
    LLMSRV_CONTEXT_LENGTH: "512",
    // The CPU path on every machine; the GPU tests (gpu*.test.ts) ask for auto themselves.
    LLMSRV_GPU: "off",
    ...env,
  });
}

/**
 * Starts a server for a test file: temporary store, port 0, one thread, silent logs.
 * `env` overrides any LLMSRV_* variable.
 */
export async function startTestServer(
  env: Record<string, string> = {},
  options: StartOptions = { ensureDemo: true },
): Promise<TestServer> {
  const modelsDir = await mkdtemp(join(tmpdir(), "llmsrv-test-"));
  const config = testConfig(modelsDir, env);
  const server = await startServer(config, createLogger(config.logLevel), options);
  return {
    ...server,
    modelsDir,
    stop: async () => {
      await server.close();
      await rm(modelsDir, { recursive: true, force: true });
    },
  };
}

/** POSTs JSON and returns status and parsed body (or text when not JSON). */
export async function postJson(
  url: string,
  body: unknown,
  init: { method?: string; headers?: Record<string, string>; raw?: string } = {},
): Promise<{ status: number; body: unknown; text: string; headers: Headers }> {
  const res = await fetch(url, {
    method: init.method ?? "POST",
    headers: { "Content-Type": "application/json", ...init.headers },
    body: init.raw ?? JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, body: parsed, text, headers: res.headers };
}

/**
 * Registers a small generated model (embedding length 64, so a different weights blob
 * than demo) through the blob upload and create endpoints.
 */
export async function createTinyModel(url: string, name: string, seed: number): Promise<void> {
  const { writeDemoModel } = await import("../src/demo/demo-model.js");
  const { digestOfFile } = await import("../src/store/blob-store.js");
  const { readFile } = await import("node:fs/promises");
  const dir = await mkdtemp(join(tmpdir(), "llmsrv-tiny-"));
  try {
    const path = join(dir, "tiny.gguf");
    await writeDemoModel(path, {
      name,
      embeddingLength: 64,
      headCount: 4,
      headCountKv: 2,
      feedForwardLength: 128,
      seed,
    });
    const digest = await digestOfFile(path);
    const up = await fetch(`${url}/api/blobs/${digest}`, {
      method: "POST",
      body: await readFile(path),
    });
    if (up.status !== 201 && up.status !== 200) throw new Error(`blob upload failed: ${up.status}`);
    const res = await postJson(`${url}/api/create`, {
      model: name,
      files: { "tiny.gguf": digest },
      stream: false,
    });
    if (res.status !== 200) throw new Error(`create failed: ${res.text}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** `/api/ps` entries. */
export async function loadedModels(
  url: string,
): Promise<Array<{ name: string; expires_at: string; active: number; queued: number }>> {
  const res = await fetch(`${url}/api/ps`);
  return (
    (await res.json()) as {
      models: Array<{ name: string; expires_at: string; active: number; queued: number }>;
    }
  ).models;
}

/** Polls `check` every 50 ms until it returns true; throws after `limitMs`. */
export async function waitFor(
  check: () => Promise<boolean>,
  limitMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * Starts a streaming generation and resolves once its first chunk arrived; `abort` drops
 * the connection.
 */
export async function startStreaming(
  url: string,
  body: Record<string, unknown>,
): Promise<{ abort(): void; done: Promise<unknown> }> {
  const controller = new AbortController();
  const res = await fetch(`${url}/api/generate`, {
    method: "POST",
    body: JSON.stringify({ ...body, stream: true }),
    signal: controller.signal,
  });
  if (!res.body) throw new Error("no body");
  const reader = res.body.getReader();
  const first = await reader.read();
  if (first.done) throw new Error(`stream ended at once (status ${res.status})`);
  const done = (async () => {
    for (;;) if ((await reader.read()).done) return;
  })().catch(() => undefined);
  return { abort: () => controller.abort(), done };
}
