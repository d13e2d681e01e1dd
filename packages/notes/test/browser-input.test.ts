import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { skipUnlessProvided } from "@quintet/kit/testing";
import type { Page } from "playwright-core";
import { loadConfig } from "../src/config.js";
import { type RunningServer, startServer } from "../src/server.js";
import { ensureChromium, type LaunchedBrowser, launchChromium } from "./support/chromium.js";

const skip = skipUnlessProvided(ensureChromium());
const EMAIL = "typist@example.com";
const PASSWORD = "typist-password";

/** The textarea's value as the page's script sees it (line breaks are LF there). */
type Field = { value: string; validity: { valid: boolean } };
const fieldValue = (page: Page, selector: string) =>
  page.$eval(selector, (el) => (el as unknown as Field).value);
const isValid = (page: Page, selector: string) =>
  page.$eval(selector, (el) => (el as unknown as Field).validity.valid);

describe("input at the limits in Chromium", { skip, timeout: 300_000 }, () => {
  let dataDir: string;
  let server: RunningServer;
  let browser: LaunchedBrowser;
  let page: Page;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "notes-browser-input-"));
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
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("shows the password minimum on the sign-up form and holds a short one back", async () => {
    await page.goto(`${server.url}/signup`);
    assert.equal(await page.textContent("#password-hint"), "At least 8 characters.");
    assert.ok(await page.isVisible("#password-hint"));
    await page.fill("#signup-email", EMAIL);
    await page.fill("#signup-password1", "1234567");
    await page.fill("#signup-password2", "1234567");
    assert.equal(await isValid(page, "#signup-password1"), false);
    await page.click("#signup-form button[type=submit]");
    assert.equal(new URL(page.url()).pathname, "/signup", "the browser did not submit");
  });

  it("keeps the typed email on a sign-up error page", async () => {
    await page.fill("#signup-email", EMAIL);
    await page.fill("#signup-password1", PASSWORD);
    await page.fill("#signup-password2", `${PASSWORD}-other`);
    await page.click("#signup-form button[type=submit]");
    assert.equal(await page.textContent("#error-message"), "Password confirmation failed !!!");
    assert.equal(await fieldValue(page, "#signup-email"), EMAIL);
    await page.fill("#signup-password1", PASSWORD);
    await page.fill("#signup-password2", PASSWORD);
    await page.click("#signup-form button[type=submit]");
    assert.match((await page.textContent(".alert-success")) ?? "", /Account created/);
  });

  it("stores a note of 10 000 characters of emoji, CJK and line breaks typed at the limit", async () => {
    await page.fill("#login-email", EMAIL);
    await page.fill("#login-password", PASSWORD);
    await page.click("#login-form button[type=submit]");
    assert.equal(new URL(page.url()).pathname, "/secure");
    // 4 UTF-16 code units a repeat: one CJK character, one emoji (a surrogate pair), one LF.
    const note = "漢😀\n".repeat(2500);
    assert.equal(note.length, 10_000);
    await page.fill("#note-body", note);
    await page.focus("#note-body");
    await page.keyboard.press("End");
    await page.keyboard.type("x");
    assert.equal(await fieldValue(page, "#note-body"), note, "maxlength stops one more character");
    await page.click("#note-form button[type=submit]");
    assert.match((await page.textContent(".alert-success")) ?? "", /Note added\./);
    const stored = await server.db.query<{ body: string }>("SELECT body FROM notes");
    assert.deepEqual(
      stored.rows.map((r) => r.body),
      [note],
    );
  });

  it("gives a signed-in bookmark of /secure a button that opens the notes", async () => {
    const response = await page.goto(`${server.url}/secure`);
    assert.equal(response?.status(), 200);
    await page.click("#open-notes");
    assert.equal(new URL(page.url()).pathname, "/secure");
    assert.equal(await page.locator(".note-item").count(), 1);
  });
});
