/**
 * Debian's Chromium for the browser tests: installed on demand by the repository's `scripts/ensure-chromium.sh`
 * (apt-get, when root), launched through playwright-core with a fresh profile directory.
 */
import { spawnSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type BrowserContext, chromium } from "playwright-core";

/** Where Debian installs Chromium. */
export const CHROMIUM_PATH = "/usr/bin/chromium";

/** Flags for a quiet, sandbox-free headless Chromium that never calls home. */
const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

const ENSURE_SCRIPT = fileURLToPath(
  new URL("../../../../../scripts/ensure-chromium.sh", import.meta.url),
);

/**
 * Makes sure Chromium is installed. Returns undefined when it is ready, else the reason the
 * browser tests must skip (the script's own explanation).
 */
export function ensureChromium(): string | undefined {
  const result = spawnSync("bash", [ENSURE_SCRIPT], { encoding: "utf8", timeout: 15 * 60_000 });
  if (result.status === 0) return undefined;
  const reason = (result.stderr || result.error?.message || "unknown failure")
    .trim()
    .split("\n")
    .pop();
  return `Chromium is not available and could not be installed: ${reason}`;
}

/** A running browser with its own fresh profile directory. */
export interface LaunchedBrowser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/** Launches Chromium headless with a fresh --user-data-dir. */
export async function launchChromium(
  options: { javaScriptEnabled?: boolean } = {},
): Promise<LaunchedBrowser> {
  const profile = await mkdtemp(join(tmpdir(), "notes-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_FLAGS,
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    viewport: { width: 1100, height: 800 },
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
