import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, afterEach, before, beforeEach, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { skipUnlessProvided } from "@quintet/kit/testing";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { startTestServer, type TestServer } from "./harness.js";

const CHROMIUM = "/usr/bin/chromium";
/** Installs Debian's Chromium when missing and root (the script the notes tests use too). */
const ENSURE = fileURLToPath(new URL("../../../../scripts/ensure-chromium.sh", import.meta.url));
const ensured =
  existsSync(CHROMIUM) || spawnSync("bash", [ENSURE], { timeout: 15 * 60_000 }).status === 0;
const skip = skipUnlessProvided(
  ensured ? undefined : `Chromium is absent at ${CHROMIUM} and could not be installed`,
);

/**
 * Pages of other sites, all served by one local server: Chromium resolves the test names
 * to 127.0.0.1, so `evil.test` and `good.test` are different origins from the API's.
 */
function pageServer(): Promise<Server> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://page");
    const action = url.searchParams.get("action") ?? "";
    const dest = url.searchParams.get("dest") ?? "";
    // A text/plain form whose body is valid JSON: the classic cross-site POST to a JSON API.
    const name = `{"source":"demo","destination":"${dest}","pad":"`;
    const html = `<!doctype html><html><body>
<form id="f" method="POST" enctype="text/plain" action="${action}">
<input type="hidden" name='${name}' value='"}'></form></body></html>`;
    res.writeHead(200, { "Content-Type": "text/html" }).end(html);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

async function modelExists(api: TestServer, name: string): Promise<boolean> {
  const res = await fetch(`${api.url}/api/tags`);
  const tags = (await res.json()) as { models: Array<{ name: string }> };
  return tags.models.some((m) => m.name === `${name}:latest`);
}

describe("the API guard against other sites, in Chromium", { skip, timeout: 180_000 }, () => {
  let api: TestServer;
  let pages: Server;
  let pagePort: number;
  let context: BrowserContext;
  let profile: string;
  let page: Page;

  before(async () => {
    api = await startTestServer({ LLMSRV_ORIGINS: "http://good.test:*" });
    pages = await pageServer();
    pagePort = (pages.address() as AddressInfo).port;
    profile = await mkdtemp(join(tmpdir(), "llmsrv-chromium-"));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--host-resolver-rules=MAP evil.test 127.0.0.1, MAP good.test 127.0.0.1, MAP rebind.test 127.0.0.1",
      ],
    });
  });
  // A fresh tab per test: a refused form post leaves Chromium's error page navigating.
  beforeEach(async () => {
    page = await context.newPage();
  });
  afterEach(async () => {
    await page.close();
  });
  after(async () => {
    await context?.close();
    await rm(profile, { recursive: true, force: true });
    await new Promise((r) => pages.close(r));
    await api.stop();
  });

  const pageUrl = (host: string, dest: string) =>
    `http://${host}:${pagePort}/?dest=${dest}&action=${encodeURIComponent(`http://127.0.0.1:${api.port}/api/copy`)}`;

  /** From the page, a simple (no preflight) POST that copies demo to `dest`. */
  const noCorsCopy = (dest: string) =>
    page.evaluate(
      async ([url, d]) => {
        try {
          await fetch(url as string, {
            method: "POST",
            mode: "no-cors",
            headers: { "Content-Type": "text/plain" },
            body: JSON.stringify({ source: "demo", destination: d }),
          });
          return "sent";
        } catch (e) {
          return String(e);
        }
      },
      [`http://127.0.0.1:${api.port}/api/copy`, dest],
    );

  /** From the page, a CORS fetch of the model list; the error text when the browser blocks it. */
  const readTags = () =>
    page.evaluate(async (url) => {
      try {
        const res = await fetch(url);
        return `${res.status} ${(await res.text()).slice(0, 10)}`;
      } catch (e) {
        return `blocked: ${String(e)}`;
      }
    }, `http://127.0.0.1:${api.port}/api/tags`);

  async function submitForm(): Promise<number | undefined> {
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().includes(`:${api.port}/api/copy`)),
      page.evaluate(() => {
        (
          globalThis as unknown as { document: { forms: Array<{ submit(): void }> } }
        ).document.forms[0]?.submit();
      }),
    ]);
    return response.status();
  }

  it("refuses a page of another site: fetch, no-cors POST and form POST change nothing", async () => {
    await page.goto(pageUrl("evil.test", "formcopy"));
    assert.match(await readTags(), /^blocked/);
    await noCorsCopy("fetchcopy");
    assert.equal(await modelExists(api, "fetchcopy"), false, "no-cors POST was refused");
    assert.equal(await submitForm(), 403);
    assert.equal(await modelExists(api, "formcopy"), false, "form POST was refused");
  });

  it("serves a page of an allowed origin: it reads answers and its posts take effect", async () => {
    await page.goto(pageUrl("good.test", "goodform"));
    assert.match(await readTags(), /^200 \{"models"/);
    await noCorsCopy("goodfetch");
    assert.equal(await modelExists(api, "goodfetch"), true);
    assert.equal(await submitForm(), 200);
    assert.equal(await modelExists(api, "goodform"), true);
  });

  it("refuses the API under a rebound name (DNS rebinding)", async () => {
    // An empty 403 shows Chromium's error page, so the answer is read off the network.
    const [res] = await Promise.all([
      page.waitForResponse((r) => r.url().startsWith("http://rebind.test:")),
      page.goto(`http://rebind.test:${api.port}/api/tags`).catch(() => undefined),
    ]);
    assert.equal(res.status(), 403);
    const fresh = await context.newPage();
    const direct = await fresh.goto(`http://localhost:${api.port}/api/tags`);
    await fresh.close();
    assert.equal(direct?.status(), 200);
  });
});
