import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { skipUnlessProvided } from "@quintet/kit/testing";
import type { Page } from "playwright-core";
import { loadConfig } from "../src/config.js";
import { type RunningServer, startServer } from "../src/server.js";
import { ensureChromium, type LaunchedBrowser, launchChromium } from "./support/chromium.js";

const SCREENSHOTS = fileURLToPath(new URL("../../screenshots/", import.meta.url));
const skip = skipUnlessProvided(ensureChromium());
const EMAIL = "browser@example.com";
const PASSWORD = "browser-pass";

/** Bootstrap's primary blue: proves bootstrap.min.css loaded and applied. */
const BOOTSTRAP_PRIMARY = "rgb(13, 110, 253)";

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** The page's `getComputedStyle`, typed here because the tests compile without the DOM lib. */
type StyleOf = (el: unknown) => { backgroundColor: string; whiteSpace: string };

/** A computed style property of the first element matching `selector`. */
async function computedStyle(
  page: Page,
  selector: string,
  property: "backgroundColor" | "whiteSpace",
) {
  // A click that submits a form returns once the next page is committed; its stylesheets may
  // still be loading (seen once under CI load: white-space "normal" before notes.css applied).
  await page.waitForLoadState("load");
  return page.$eval(
    selector,
    (el, prop) =>
      (globalThis as unknown as { getComputedStyle: StyleOf }).getComputedStyle(el)[prop],
    property,
  );
}

function navbarColor(page: Page): Promise<string> {
  return computedStyle(page, "nav.navbar", "backgroundColor");
}

describe("the notes app in Chromium", { skip, timeout: 300_000 }, () => {
  let dataDir: string;
  let server: RunningServer;
  let browser: LaunchedBrowser;
  let page: Page;
  const problems: string[] = [];

  before(async () => {
    await mkdir(SCREENSHOTS, { recursive: true });
    dataDir = await mkdtemp(join(tmpdir(), "notes-browser-"));
    const config = loadConfig({
      NOTES_ADDR: "127.0.0.1:0",
      NOTES_DATA_DIR: dataDir,
      SESSION_SECRET: "browser-test-secret-0123456789",
      NOTES_BCRYPT_COST: "4",
      NOTES_LOG_LEVEL: "silent",
    });
    server = await startServer(config);
    browser = await launchChromium();
    page = await browser.context.newPage();
    // CSP violations show up on the console; a stylesheet or image that fails to load is a
    // broken page. (Error pages themselves answer 4xx by design, so documents are not counted.)
    page.on("console", (msg) => {
      if (/Content Security Policy|Refused to/i.test(msg.text())) problems.push(msg.text());
    });
    page.on("response", (response) => {
      const type = response.request().resourceType();
      if ((type === "stylesheet" || type === "image") && response.status() >= 400) {
        problems.push(`${response.status()} ${response.url()}`);
      }
    });
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("shows the welcome page styled by Bootstrap, with a login form and a sign-up link", async () => {
    await page.goto(`${server.url}/`);
    assert.equal(await page.title(), "Welcome · Notes");
    assert.equal(await navbarColor(page), BOOTSTRAP_PRIMARY);
    assert.equal(await page.locator("#login-form").count(), 1);
    await shoot(page, "01-welcome");
  });

  it("shows a sign-up error page whose Back link returns to the sign-up form", async () => {
    await page.click("#signup-link");
    assert.equal(new URL(page.url()).pathname, "/signup");
    await shoot(page, "02-signup");
    await page.fill("#signup-email", EMAIL);
    await page.fill("#signup-password1", PASSWORD);
    await page.fill("#signup-password2", "something else");
    await page.click("#signup-form button[type=submit]");
    assert.equal(await page.textContent("#error-message"), "Password confirmation failed !!!");
    await shoot(page, "03-signup-error");
    await page.click("#back-link");
    assert.equal(new URL(page.url()).pathname, "/signup");
  });

  it("signs up and returns to the welcome page", async () => {
    await page.fill("#signup-email", EMAIL);
    await page.fill("#signup-password1", PASSWORD);
    await page.fill("#signup-password2", PASSWORD);
    await page.click("#signup-form button[type=submit]");
    assert.match(
      (await page.textContent(".alert-success")) ?? "",
      /Account created for browser@example\.com/,
    );
    await shoot(page, "04-signed-up");
  });

  it("logs in and lands on the protected page through the 307", async () => {
    await page.fill("#login-email", EMAIL);
    await page.fill("#login-password", PASSWORD);
    await page.click("#login-form button[type=submit]");
    assert.equal(new URL(page.url()).pathname, "/secure");
    assert.equal(await page.textContent("#signed-in-as"), EMAIL);
    assert.equal(await page.locator("#logout-link").getAttribute("href"), "/logout");
    await shoot(page, "05-secure-empty");
  });

  it("adds notes, lists them newest first, and renders markup in them as text", async () => {
    for (const text of ["First note", "Second <b>note</b>"]) {
      await page.fill("#note-body", text);
      await page.click("#note-form button[type=submit]");
      assert.match((await page.textContent(".alert-success")) ?? "", /Note added\./);
    }
    assert.deepEqual(await page.locator(".note-body").allTextContents(), [
      "Second <b>note</b>",
      "First note",
    ]);
    assert.equal(await page.locator(".note-body b").count(), 0);
    // The app's own stylesheet (only for signed-in pages) is applied.
    assert.equal(await computedStyle(page, ".note-body", "whiteSpace"), "pre-wrap");
    await shoot(page, "06-secure-notes");
  });

  it("deletes a note", async () => {
    await page.locator(".note-item", { hasText: "First note" }).locator("button").click();
    assert.match((await page.textContent(".alert-success")) ?? "", /Note deleted\./);
    assert.deepEqual(await page.locator(".note-body").allTextContents(), ["Second <b>note</b>"]);
    await shoot(page, "07-secure-deleted");
  });

  it("logs out to the welcome page, after which the protected page sends to the login form", async () => {
    await page.click("#logout-link");
    assert.equal(new URL(page.url()).pathname, "/logout");
    assert.match((await page.textContent(".alert-info")) ?? "", /You have logged out\./);
    await shoot(page, "08-logged-out");
    await page.goto(`${server.url}/secure`);
    assert.equal(new URL(page.url()).pathname, "/login");
    assert.equal(await navbarColor(page), BOOTSTRAP_PRIMARY);
    await shoot(page, "09-login");
  });

  it("shows a login error page whose Back link returns to the login form", async () => {
    await page.fill("#login-email", EMAIL);
    await page.fill("#login-password", "wrong password");
    await page.click("#login-form button[type=submit]");
    assert.equal(await page.textContent("#error-message"), "Invalid password !!!");
    await shoot(page, "10-login-error");
    await page.click("#back-link");
    assert.equal(new URL(page.url()).pathname, "/login");
  });

  it("hit no CSP violation and no failed stylesheet or image on any page", () => {
    assert.deepEqual(problems, []);
  });
});

describe("the error page's Back link with JavaScript turned off", {
  skip,
  timeout: 120_000,
}, () => {
  let dataDir: string;
  let server: RunningServer;
  let browser: LaunchedBrowser;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "notes-browser-nojs-"));
    const config = loadConfig({
      NOTES_ADDR: "127.0.0.1:0",
      NOTES_DATA_DIR: dataDir,
      SESSION_SECRET: "browser-test-secret-0123456789",
      NOTES_LOG_LEVEL: "silent",
    });
    server = await startServer(config);
    browser = await launchChromium({ javaScriptEnabled: false });
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("returns from a login error to the welcome page it came from", async () => {
    const page = await browser.context.newPage();
    await page.goto(`${server.url}/`);
    await page.fill("#login-email", "nobody@example.com");
    await page.fill("#login-password", "whatever");
    await page.click("#login-form button[type=submit]");
    assert.equal(await page.textContent("#error-message"), "Invalid email !!!");
    await page.click("#back-link");
    assert.equal(new URL(page.url()).pathname, "/");
    assert.equal(await page.locator("#login-form").count(), 1);
  });
});
