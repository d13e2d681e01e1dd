import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { STORAGE_TARGETS } from "./support/storage-targets.js";
import { logIn, postForm, signUp, useTestApp } from "./support/test-app.js";

/** Bodies of the notes listed on a protected page, in page order. */
function noteBodies(page: string): string[] {
  return [...page.matchAll(/<p class="note-body mb-1">([^<]*)<\/p>/g)].map((m) => m[1] ?? "");
}

/** Ids of the notes listed on a protected page, in page order. */
function noteIds(page: string): string[] {
  return [...page.matchAll(/data-note-id="(\d+)"/g)].map((m) => m[1] ?? "");
}

for (const target of STORAGE_TARGETS) {
  describe(`notes on the protected page on ${target.name}`, { skip: target.skip }, () => {
    const suite = useTestApp(target);
    let alice: string;
    let mallory: string;
    before(async () => {
      await signUp(suite.app, "alice@example.com", "alice-pw");
      await signUp(suite.app, "mallory@example.com", "mallory-pw");
      alice = await logIn(suite.app, "alice@example.com", "alice-pw");
      mallory = await logIn(suite.app, "mallory@example.com", "mallory-pw");
    });

    const page = async (cookie: string) =>
      (await suite.app.inject({ method: "POST", url: "/secure", headers: { cookie } })).body;

    it("shows an empty list to a new user", async () => {
      assert.match(await page(alice), /No notes yet/);
    });

    it("adds a note and redirects with 307 to /secure, which lists it with a confirmation", async () => {
      const response = await postForm(suite.app, "/notes", { body: "buy milk" }, { cookie: alice });
      assert.equal(response.statusCode, 307);
      assert.equal(response.headers.location, "/secure?notice=added");
      const shown = await suite.app.inject({
        method: "POST",
        url: "/secure?notice=added",
        headers: { cookie: alice },
      });
      assert.match(shown.body, /Note added\./);
      assert.deepEqual(noteBodies(shown.body), ["buy milk"]);
    });

    it("lists notes newest first", async () => {
      await postForm(suite.app, "/notes", { body: "second" }, { cookie: alice });
      await postForm(suite.app, "/notes", { body: "third" }, { cookie: alice });
      assert.deepEqual(noteBodies(await page(alice)), ["third", "second", "buy milk"]);
    });

    it("refuses a blank or oversized note with 400 and keeps the list as it was", async () => {
      const before = noteBodies(await page(alice));
      for (const body of ["", "   ", "x".repeat(10_001)]) {
        const response = await postForm(suite.app, "/notes", { body }, { cookie: alice });
        assert.equal(response.statusCode, 400);
        assert.match(response.body, /Invalid note !!! A note has 1 to 10000 characters\./);
      }
      const missing = await postForm(suite.app, "/notes", {}, { cookie: alice });
      assert.equal(missing.statusCode, 400);
      assert.deepEqual(noteBodies(await page(alice)), before);
    });

    it("never shows one user's notes to another", async () => {
      await postForm(suite.app, "/notes", { body: "mallory private note" }, { cookie: mallory });
      assert.deepEqual(noteBodies(await page(mallory)), ["mallory private note"]);
      assert.ok(!noteBodies(await page(alice)).includes("mallory private note"));
    });

    it("does not let a user delete another user's note (404, note kept)", async () => {
      const aliceIds = noteIds(await page(alice));
      const target = aliceIds[0] ?? "";
      const response = await postForm(
        suite.app,
        "/notes/delete",
        { id: target },
        { cookie: mallory },
      );
      assert.equal(response.statusCode, 404);
      assert.match(response.body, /Note not found !!!/);
      assert.deepEqual(noteIds(await page(alice)), aliceIds);
    });

    it("answers a malformed or unknown note id with 404 and deletes nothing", async () => {
      const before = noteIds(await page(alice));
      for (const id of ["", "abc", "0", "-1", "1 OR 1=1", "99999999999999999999", "424242"]) {
        const response = await postForm(suite.app, "/notes/delete", { id }, { cookie: alice });
        assert.equal(response.statusCode, 404, id);
      }
      assert.deepEqual(noteIds(await page(alice)), before);
    });

    it("deletes the user's own note and redirects with 307 to /secure", async () => {
      const ids = noteIds(await page(alice));
      const response = await postForm(
        suite.app,
        "/notes/delete",
        { id: ids[0] ?? "" },
        { cookie: alice },
      );
      assert.equal(response.statusCode, 307);
      assert.equal(response.headers.location, "/secure?notice=deleted&page=1");
      assert.deepEqual(noteIds(await page(alice)), ids.slice(1));
    });

    it("renders a note containing <script> as text", async () => {
      await postForm(
        suite.app,
        "/notes",
        { body: `<script>alert("x")</script> & 'q'` },
        { cookie: alice },
      );
      const body = await page(alice);
      assert.ok(!body.includes("<script>"));
      assert.ok(
        body.includes("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;"),
      );
    });

    it("renders an email containing <script> as text on every page that shows it", async () => {
      const email = "<script>x</script>@example.com";
      await signUp(suite.app, email, "notes-password");
      const cookie = await logIn(suite.app, email, "notes-password");
      for (const [method, url] of [
        ["POST", "/secure"],
        ["GET", "/"],
      ] as const) {
        const response = await suite.app.inject({ method, url, headers: { cookie } });
        assert.ok(!response.body.includes("<script>"), url);
        assert.ok(response.body.includes("&lt;script&gt;x&lt;/script&gt;@example.com"), url);
      }
    });

    it("shows only a fixed confirmation for the notice parameter, never the parameter itself", async () => {
      const response = await suite.app.inject({
        method: "POST",
        url: "/secure?notice=%3Cb%3Ehi",
        headers: { cookie: alice },
      });
      assert.equal(response.statusCode, 200);
      assert.ok(!response.body.includes("<b>hi"));
      assert.ok(!response.body.includes("&lt;b&gt;hi"));
      for (const notice of ["constructor", "__proto__", "toString"]) {
        const odd = await suite.app.inject({
          method: "POST",
          url: `/secure?notice=${notice}`,
          headers: { cookie: alice },
        });
        assert.equal(odd.statusCode, 200);
        assert.doesNotMatch(odd.body, /role="alert"/, notice);
      }
    });
  });
}
