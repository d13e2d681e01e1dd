import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadConfig } from "../src/config.js";
import { createLogger } from "../src/logger.js";
import { type RunningServer, type StartOptions, startServer } from "../src/server.js";

/** Where the shared real test model lives, relative to the repository. */
export const STORIES_PATH = resolve(
  fileURLToPath(new URL(".", import.meta.url)),
  "../../../../../shared/models/stories260K.gguf",
);

/** Reason to skip real-model tests, or undefined when the model is present. */
export const storiesSkip = existsSync(STORIES_PATH)
  ? undefined
  : `real test model absent at ${STORIES_PATH}`;

/** A server on an ephemeral port with its own temporary store. */
export interface TestServer extends RunningServer {
  modelsDir: string;
  stop(): Promise<void>;
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
  const config = loadConfig({
    LLMSRV_HOST: "127.0.0.1:0",
    LLMSRV_MODELS: modelsDir,
    LLMSRV_NUM_THREAD: "1",
    LLMSRV_LOG_LEVEL: "silent",
    LLMSRV_CONTEXT_LENGTH: "512",
    ...env,
  });
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
