import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { STORAGE_TARGETS } from "./support/storage-targets.js";
import {
  errorMessageOf,
  logIn,
  postForm,
  sessionCookieOf,
  signUp,
  useTestApp,
} from "./support/test-app.js";

const EMAIL = "dora@example.com";
const PASSWORD = "dora pass 1";
/** The reverse proxy's own address: every proxied request arrives from it. */
const PROXY = "10.9.9.9";
const pglite = STORAGE_TARGETS[0] as (typeof STORAGE_TARGETS)[number];

describe("client address behind a trusted proxy (NOTES_TRUST_PROXY)", () => {
  const suite = useTestApp(pglite, {
    NOTES_TRUST_PROXY: "true",
    NOTES_LOGIN_MAX_FAILURES: "3",
  });
  before(() => signUp(suite.app, EMAIL, PASSWORD));

  const loginVia = (forwardedFor: string, email: string, password: string) =>
    postForm(
      suite.app,
      "/login",
      { email, password },
      { remoteAddress: PROXY, headers: { "x-forwarded-for": forwardedFor } },
    );

  it("throttles by the address the proxy appended, whatever the client wrote first", async () => {
    for (let i = 0; i < 3; i++) {
      const failed = await loginVia(`6.6.6.${i}, 203.0.113.5`, `nobody-${i}@example.com`, "x");
      assert.equal(failed.statusCode, 401);
    }
    const blocked = await loginVia("7.7.7.7, 203.0.113.5", EMAIL, PASSWORD);
    assert.equal(blocked.statusCode, 429);
    const otherClient = await loginVia("6.6.6.0, 203.0.113.6", EMAIL, PASSWORD);
    assert.equal(otherClient.statusCode, 307);
  });
});

for (const target of STORAGE_TARGETS) {
  describe(`logout on ${target.name}`, { skip: target.skip }, () => {
    const suite = useTestApp(target);
    before(() => signUp(suite.app, EMAIL, PASSWORD));

    const openNotes = (cookie: string) =>
      suite.app.inject({ method: "POST", url: "/secure", headers: { cookie } });
    const logOut = (cookie: string, fetchSite?: string) =>
      suite.app.inject({
        method: "GET",
        url: "/logout",
        headers: { cookie, ...(fetchSite ? { "sec-fetch-site": fetchSite } : {}) },
      });

    it("refuses a GET /logout another site started, and the session goes on", async () => {
      const cookie = await logIn(suite.app, EMAIL, PASSWORD);
      for (const fetchSite of ["cross-site", "same-site"]) {
        const forged = await logOut(cookie, fetchSite);
        assert.equal(forged.statusCode, 403, fetchSite);
        assert.equal(errorMessageOf(forged.body), "Cross-site request refused !!!");
        assert.equal(forged.headers["set-cookie"], undefined, "the cookie is not cleared");
      }
      assert.equal((await openNotes(cookie)).statusCode, 200, "still signed in");
      const own = await logOut(cookie, "same-origin");
      assert.equal(own.statusCode, 200);
      assert.match(String(sessionCookieOf(own)), /^notes_session=$/);
    });

    it("keeps the session on HEAD /logout: only GET logs out", async () => {
      const cookie = await logIn(suite.app, EMAIL, PASSWORD);
      const head = await suite.app.inject({ method: "HEAD", url: "/logout", headers: { cookie } });
      assert.equal(head.statusCode, 200);
      assert.equal(head.headers["set-cookie"], undefined, "the cookie is not cleared");
      assert.equal((await openNotes(cookie)).statusCode, 200, "still signed in");
    });

    it("refuses a GET /logout from another site over plain HTTP, by Origin or Referer", async () => {
      // Chromium sends no Sec-Fetch-* to http://notes.test; an <img> carries the other
      // site's Referer, a fetch its Origin.
      const cookie = await logIn(suite.app, EMAIL, PASSWORD);
      for (const provenance of [
        { referer: "http://evil.test/page.html" },
        { origin: "http://evil.test" },
      ]) {
        const forged = await suite.app.inject({
          method: "GET",
          url: "/logout",
          headers: { cookie, host: "notes.test", ...provenance },
        });
        assert.equal(forged.statusCode, 403, JSON.stringify(provenance));
        assert.equal(errorMessageOf(forged.body), "Cross-site request refused !!!");
        assert.equal(forged.headers["set-cookie"], undefined, "the cookie is not cleared");
      }
      assert.equal((await openNotes(cookie)).statusCode, 200, "still signed in");
      const own = await suite.app.inject({
        method: "GET",
        url: "/logout",
        headers: { cookie, host: "notes.test", referer: "http://notes.test/" },
      });
      assert.equal(own.statusCode, 200, "the app's own logout link still works");
      assert.match(String(sessionCookieOf(own)), /^notes_session=$/);
    });

    it("ends the session server-side: a cookie copied before logout is refused after it", async () => {
      const copied = await logIn(suite.app, EMAIL, PASSWORD);
      const other = await logIn(suite.app, EMAIL, PASSWORD);
      assert.equal((await openNotes(copied)).statusCode, 200);
      assert.equal((await logOut(other)).statusCode, 200);
      for (const cookie of [copied, other]) {
        const refused = await openNotes(cookie);
        assert.equal(refused.statusCode, 302);
        assert.equal(refused.headers.location, "/login");
      }
      const fresh = await logIn(suite.app, EMAIL, PASSWORD);
      assert.equal((await openNotes(fresh)).statusCode, 200, "a new login works again");
    });
  });
}
