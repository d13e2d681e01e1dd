import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { STORAGE_TARGETS } from "./support/storage-targets.js";
import { errorMessageOf, logIn, postForm, signUp, useTestApp } from "./support/test-app.js";

const PASSWORD = "pages-password";
const TOTAL = 523;

/** Ids of the notes listed on a page, in page order. */
function noteIds(page: string): string[] {
  return [...page.matchAll(/data-note-id="(\d+)"/g)].map((m) => m[1] ?? "");
}

/** Page numbers the pagination buttons post to, by their rel. */
function pageButtons(page: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of page.matchAll(
    /<form method="post" action="\/secure\?page=(\d+)"[^>]*>\s*<button[^>]*rel="(\w+)"/g,
  )) {
    out[m[2] ?? ""] = m[1] ?? "";
  }
  return out;
}

for (const target of STORAGE_TARGETS) {
  describe(`the notes list past 500 notes on ${target.name}`, { skip: target.skip }, () => {
    const suite = useTestApp(target);
    let cookie: string;
    before(async () => {
      await signUp(suite.app, "many@example.com", PASSWORD);
      cookie = await logIn(suite.app, "many@example.com", PASSWORD);
      await suite.storage.db.query(
        `INSERT INTO notes (owner, body, created_at)
         SELECT $1, 'note ' || n, now() - n * interval '1 minute' FROM generate_series(1, $2::int) AS n`,
        ["many@example.com", TOTAL],
      );
    });
    const open = (url: string) =>
      suite.app.inject({ method: "POST", url, headers: { cookie } }).then((r) => r.body);

    it("pages through all 523 notes, 100 a page, newest first, each exactly once", async () => {
      const seen: string[] = [];
      let url = "/secure";
      for (let page = 1; page <= 6; page++) {
        const body = await open(url);
        assert.match(body, new RegExp(`Page ${page} of 6 \\(${TOTAL} notes\\)`));
        const ids = noteIds(body);
        assert.equal(ids.length, page < 6 ? 100 : 23, `page ${page}`);
        seen.push(...ids);
        const buttons = pageButtons(body);
        if (page < 6) {
          assert.equal(buttons.next, String(page + 1));
          url = `/secure?page=${buttons.next}`;
        } else assert.equal(buttons.next, undefined);
        if (page > 1) assert.equal(buttons.prev, String(page - 1));
      }
      assert.equal(new Set(seen).size, TOTAL);
      const first = await open("/secure");
      assert.match(first, /<p class="note-body mb-1">note 1<\/p>/);
      assert.match(await open("/secure?page=6"), /<p class="note-body mb-1">note 523<\/p>/);
    });

    it("shows the last page for a page number past the end, and deleting stays on the page", async () => {
      assert.match(await open("/secure?page=99"), /Page 6 of 6/);
      const page3 = noteIds(await open("/secure?page=3"));
      const response = await postForm(
        suite.app,
        "/notes/delete",
        { id: page3[0] ?? "", page: "3" },
        { cookie },
      );
      assert.equal(response.statusCode, 307);
      assert.equal(response.headers.location, "/secure?notice=deleted&page=3");
    });
  });

  describe(`GET /secure on ${target.name}`, { skip: target.skip }, () => {
    const suite = useTestApp(target);
    let cookie: string;
    before(async () => {
      await signUp(suite.app, "bookmark@example.com", PASSWORD);
      cookie = await logIn(suite.app, "bookmark@example.com", PASSWORD);
    });
    const get = (headers: Record<string, string>, withCookie = true) =>
      suite.app.inject({
        method: "GET",
        url: "/secure",
        headers: { ...headers, ...(withCookie ? { cookie } : {}) },
      });

    it("gives a browser's navigation a page whose button posts to /secure", async () => {
      for (const headers of [
        { "sec-fetch-mode": "navigate", accept: "text/html,application/xhtml+xml,*/*;q=0.8" },
        { accept: "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8" },
      ] as Array<Record<string, string>>) {
        const response = await get(headers);
        assert.equal(response.statusCode, 200, JSON.stringify(headers));
        assert.match(response.body, /<form method="post" action="\/secure" id="open-notes-form">/);
        assert.match(response.body, /id="signed-in-as">bookmark@example\.com</);
      }
    });

    it("keeps the spec's 405 for API clients and scripts", async () => {
      for (const headers of [
        {},
        { accept: "*/*" },
        { accept: "application/json" },
        { "sec-fetch-mode": "cors", accept: "text/html" },
      ] as Array<Record<string, string>>) {
        const response = await get(headers);
        assert.equal(response.statusCode, 405, JSON.stringify(headers));
        assert.equal(response.headers.allow, "POST");
        assert.equal(errorMessageOf(response.body), "Method GET is not allowed on /secure !!!");
      }
    });

    it("still sends an anonymous navigation to /login", async () => {
      const response = await get({ "sec-fetch-mode": "navigate" }, false);
      assert.equal(response.statusCode, 302);
      assert.equal(response.headers.location, "/login");
    });
  });
}
