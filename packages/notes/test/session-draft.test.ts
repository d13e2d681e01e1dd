/**
 * A note typed while the session ran out is kept: the POST sends the browser to /login, and
 * the notes page after the next login shows the note in the form, to its writer only.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import type { LightMyRequestResponse } from "fastify";
import { createSessionCodec } from "../src/auth/session.js";
import { STORAGE_TARGETS } from "./support/storage-targets.js";
import { logIn, postForm, signUp, TEST_SECRET, useTestApp } from "./support/test-app.js";

const ANN = "ann@example.com";
const BOB = "bob@example.com";
const PASSWORD = "draft password";
const NOTE = 'Buy milk\nand <bread> & "eggs"';
const DAY = 86_400;

/** A session cookie we signed for `email` two days ago: expired. */
function expiredSessionOf(email: string): string {
  const past = createSessionCodec({
    secret: TEST_SECRET,
    maxAgeSeconds: DAY,
    now: () => Date.now() - 2 * DAY * 1000,
  });
  return `notes_session=${past.issue(email, 0)}`;
}

/** The `name=value` pair of cookie `name` set by a response, or undefined. */
function setCookieOf(response: LightMyRequestResponse, name: string): string | undefined {
  const header = response.headers["set-cookie"];
  const all = Array.isArray(header) ? header : header ? [header] : [];
  return all.find((c) => c.startsWith(`${name}=`));
}

/** The text inside the new-note textarea, entities undone. */
function draftOf(page: string): string | undefined {
  const match = /<textarea[^>]*id="note-body"[^>]*>\n([^<]*)<\/textarea>/.exec(page);
  return match?.[1]
    ?.replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'")
    .replaceAll("&amp;", "&");
}

const pglite = STORAGE_TARGETS[0] as (typeof STORAGE_TARGETS)[number];

describe("a note sent after the session ended", () => {
  const suite = useTestApp(pglite);
  before(async () => {
    await signUp(suite.app, ANN, PASSWORD);
    await signUp(suite.app, BOB, PASSWORD);
  });

  const notesPage = (cookies: string[]) =>
    suite.app.inject({ method: "POST", url: "/secure", headers: { cookie: cookies.join("; ") } });
  const sendNote = (cookie: string) => postForm(suite.app, "/notes", { body: NOTE }, { cookie });
  const noteCount = async () => (await suite.storage.db.query("SELECT id FROM notes")).rows.length;

  it("is kept, announced on the login page and back in the form after logging in", async () => {
    const sent = await sendNote(expiredSessionOf(ANN));
    assert.equal(sent.statusCode, 302);
    assert.equal(sent.headers.location, "/login");
    const draftCookie = (setCookieOf(sent, "notes_draft") ?? "").split(";")[0] as string;
    assert.match(draftCookie, /^notes_draft=[\w-]{20,}$/);
    assert.match(String(setCookieOf(sent, "notes_draft")), /HttpOnly; SameSite=Lax/);

    const login = await suite.app.inject({
      method: "GET",
      url: "/login",
      headers: { cookie: draftCookie },
    });
    assert.match(login.body, /the note you were writing is kept/);

    const session = await logIn(suite.app, ANN, PASSWORD);
    const page = await notesPage([session, draftCookie]);
    assert.equal(page.statusCode, 200);
    assert.equal(draftOf(page.body), NOTE);
    assert.match(page.body, /so it was kept: press Add note to save it/);
    assert.match(String(setCookieOf(page, "notes_draft")), /^notes_draft=; Max-Age=0/);
    assert.equal(await noteCount(), 0, "kept, not saved behind the writer's back");

    const again = await notesPage([session, draftCookie]);
    assert.equal(draftOf(again.body), "", "shown once");
  });

  it("never reaches another user logging in in the same browser", async () => {
    const sent = await sendNote(expiredSessionOf(ANN));
    const draftCookie = (setCookieOf(sent, "notes_draft") ?? "").split(";")[0] as string;
    const bob = await logIn(suite.app, BOB, PASSWORD);
    const page = await notesPage([bob, draftCookie]);
    assert.equal(draftOf(page.body), "");
    assert.doesNotMatch(page.body, /Buy milk|was kept/);
    // Nor does Ann see it in another browser, without the draft's cookie.
    const ann = await logIn(suite.app, ANN, PASSWORD);
    assert.equal(draftOf((await notesPage([ann])).body), "");
  });

  it("is not kept without a cookie we signed", async () => {
    // The payload always starts `eyJ` ('{"'); another first letter breaks the signature.
    const forged = expiredSessionOf(ANN).replace("notes_session=eyJ", "notes_session=fyJ");
    assert.match(forged, /^notes_session=fyJ/);
    for (const cookie of ["", forged]) {
      const sent = await sendNote(cookie);
      assert.equal(sent.statusCode, 302);
      assert.equal(sent.headers.location, "/login");
      assert.equal(setCookieOf(sent, "notes_draft"), undefined);
    }
  });

  it("keeps the session cookie in the browser through the draft window", async () => {
    const login = await postForm(suite.app, "/login", { email: ANN, password: PASSWORD });
    assert.match(String(setCookieOf(login, "notes_session")), /Max-Age=87300;/);
  });
});

describe("with NOTES_MAX_DRAFTS=0", () => {
  const suite = useTestApp(pglite, { NOTES_MAX_DRAFTS: "0" });
  before(() => signUp(suite.app, ANN, PASSWORD));

  it("keeps no note and the session cookie lives as long as the session", async () => {
    const sent = await postForm(
      suite.app,
      "/notes",
      { body: NOTE },
      { cookie: expiredSessionOf(ANN) },
    );
    assert.equal(sent.headers.location, "/login");
    assert.equal(setCookieOf(sent, "notes_draft"), undefined);
    const login = await postForm(suite.app, "/login", { email: ANN, password: PASSWORD });
    assert.match(String(setCookieOf(login, "notes_session")), /Max-Age=86400;/);
  });
});
