import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import type { FastifyInstance } from "fastify";
import { STORAGE_TARGETS } from "./support/storage-targets.js";
import { errorMessageOf, logIn, postForm, signUp, useTestApp } from "./support/test-app.js";

const PASSWORD = "input-password";
const FORM = { "content-type": "application/x-www-form-urlencoded" };

/** Invalid text in a field, as a client can send it: raw urlencoded pieces or JSON strings. */
const BAD_ENCODED = ["a%00b", "a%C3%28b", "%FF", "a%ZZ", "%ED%A0%80"];
const BAD_JSON = ["a\u0000b", "a\ud800b", "\udfff"];

/** Sends `fields` (already urlencoded values) as a form body. */
function postRaw(app: FastifyInstance, url: string, body: string, cookie?: string) {
  return app.inject({
    method: "POST",
    url,
    payload: body,
    headers: { ...FORM, ...(cookie ? { cookie } : {}) },
  });
}

function postJson(app: FastifyInstance, url: string, payload: object, cookie?: string) {
  return app.inject({ method: "POST", url, payload, headers: cookie ? { cookie } : {} });
}

/** The text inside the new-note textarea (the browser drops the newline after the tag). */
function draftOf(page: string): string | undefined {
  const match = /<textarea[^>]*id="note-body"[^>]*>\n([^<]*)<\/textarea>/.exec(page);
  return match?.[1]
    ?.replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'")
    .replaceAll("&amp;", "&");
}

for (const target of STORAGE_TARGETS) {
  describe(`invalid text in form fields on ${target.name}`, { skip: target.skip }, () => {
    const suite = useTestApp(target, { NOTES_SIGNUP_MAX_ATTEMPTS: "1000" });
    let cookie: string;
    before(async () => {
      await signUp(suite.app, "input@example.com", PASSWORD);
      cookie = await logIn(suite.app, "input@example.com", PASSWORD);
    });
    const users = async () => (await suite.storage.db.query("SELECT 1 FROM user_tbl")).rows.length;
    const notes = async () => (await suite.storage.db.query("SELECT 1 FROM notes")).rows.length;

    it("answers each sign-up and login field's 400 message, never a 500, and stores nothing", async () => {
      const before = await users();
      const cases: Array<[string, (bad: string) => string, (bad: string) => object, string]> = [
        [
          "/signup",
          (b) => `email=${b}%40x.io&password1=${PASSWORD}&password2=${PASSWORD}`,
          (b) => ({ email: `${b}@x.io`, password1: PASSWORD, password2: PASSWORD }),
          "Invalid email !!!",
        ],
        [
          "/signup",
          (b) => `email=p%40x.io&password1=${b}pppppppp&password2=${b}pppppppp`,
          (b) => ({ email: "p@x.io", password1: `${b}pppppppp`, password2: `${b}pppppppp` }),
          "Invalid password !!!",
        ],
        [
          "/login",
          (b) => `email=${b}%40x.io&password=${PASSWORD}`,
          (b) => ({ email: `${b}@x.io`, password: PASSWORD }),
          "Invalid email !!!",
        ],
        [
          "/login",
          (b) => `email=input%40example.com&password=${b}`,
          (b) => ({ email: "input@example.com", password: b }),
          "Invalid password !!!",
        ],
      ];
      for (const [url, encoded, json, message] of cases) {
        for (const bad of BAD_ENCODED) {
          const response = await postRaw(suite.app, url, encoded(bad));
          assert.equal(response.statusCode, 400, `${url} ${encoded(bad)}`);
          assert.equal(errorMessageOf(response.body), message, `${url} ${encoded(bad)}`);
        }
        for (const bad of BAD_JSON) {
          const response = await postJson(suite.app, url, json(bad));
          assert.equal(response.statusCode, 400, `${url} ${JSON.stringify(bad)}`);
          assert.equal(errorMessageOf(response.body), message, `${url} ${JSON.stringify(bad)}`);
        }
      }
      assert.equal(await users(), before);
    });

    it("refuses raw bytes that are not UTF-8 in a field with its 400", async () => {
      const body = Buffer.concat([
        Buffer.from("email=a"),
        Buffer.from([0xff]),
        Buffer.from(`%40x.io&password1=${PASSWORD}&password2=${PASSWORD}`),
      ]);
      const response = await suite.app.inject({
        method: "POST",
        url: "/signup",
        payload: body,
        headers: FORM,
      });
      assert.equal(response.statusCode, 400);
      assert.equal(errorMessageOf(response.body), "Invalid email !!!");
    });

    it("answers a note with invalid text with the note's 400 and stores nothing", async () => {
      const before = await notes();
      for (const bad of BAD_ENCODED) {
        const response = await postRaw(suite.app, "/notes", `body=note+${bad}`, cookie);
        assert.equal(response.statusCode, 400, bad);
        assert.match(response.body, /Invalid note !!! A note cannot contain NUL or invalid text\./);
      }
      for (const bad of BAD_JSON) {
        const response = await postJson(suite.app, "/notes", { body: `note ${bad}` }, cookie);
        assert.equal(response.statusCode, 400, JSON.stringify(bad));
      }
      assert.equal(await notes(), before);
    });
  });

  describe(`note length and refused notes on ${target.name}`, { skip: target.skip }, () => {
    const suite = useTestApp(target);
    let cookie: string;
    before(async () => {
      await signUp(suite.app, "long@example.com", PASSWORD);
      cookie = await logIn(suite.app, "long@example.com", PASSWORD);
    });
    const stored = async () =>
      (
        await suite.storage.db.query<{ body: string }>(
          "SELECT body FROM notes ORDER BY id DESC LIMIT 1",
        )
      ).rows[0]?.body;
    const add = (body: string) => postForm(suite.app, "/notes", { body }, { cookie });

    it("stores 10 000 characters of CJK (90 000 bytes url-encoded) intact", async () => {
      const cjk = "漢字かなㅎ".repeat(2000);
      assert.equal(cjk.length, 10_000);
      const response = await add(cjk);
      assert.equal(response.statusCode, 307);
      assert.equal(await stored(), cjk);
    });

    it("stores 5 000 emoji (10 000 UTF-16 code units, as maxlength counts) intact", async () => {
      const emoji = "😀🎉".repeat(2500);
      assert.equal(emoji.length, 10_000);
      assert.equal((await add(emoji)).statusCode, 307);
      assert.equal(await stored(), emoji);
    });

    it("counts a submitted CRLF as one character, like the textarea's maxlength, and stores LF", async () => {
      const typed = `${"a".repeat(4999)}\n${"b".repeat(5000)}`;
      assert.equal(typed.length, 10_000);
      const response = await add(typed.replace("\n", "\r\n"));
      assert.equal(response.statusCode, 307);
      assert.equal(await stored(), typed);
    });

    it("refuses one code unit more with 400 and gives the typed text back in the form", async () => {
      const typed = `${"😀".repeat(5000)}x`;
      const response = await add(typed);
      assert.equal(response.statusCode, 400);
      assert.match(response.body, /Invalid note !!! A note has 1 to 10000 characters\./);
      assert.equal(draftOf(response.body), typed);
      const markup = "<b>kept & shown as text</b>\r\n";
      const blankish = await add(`${markup}${"x".repeat(10_000)}`);
      assert.equal(draftOf(blankish.body), `${markup.replace("\r\n", "\n")}${"x".repeat(10_000)}`);
    });

    it("gives a note with a NUL back in the form, the NUL shown as U+FFFD", async () => {
      const response = await add("before\u0000after");
      assert.equal(response.statusCode, 400);
      assert.equal(draftOf(response.body), "before\uFFFDafter");
    });
  });
}
