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

const EMAIL = "dave@example.com";
const PASSWORD = "dave-password";

for (const target of STORAGE_TARGETS) {
  describe(`cross-site requests and security headers on ${target.name}`, {
    skip: target.skip,
  }, () => {
    const suite = useTestApp(target);
    before(async () => {
      await signUp(suite.app, EMAIL, PASSWORD);
    });

    const login = (headers: Record<string, string>) =>
      postForm(suite.app, "/login", { email: EMAIL, password: PASSWORD }, { headers });

    it("refuses a login a browser marks as cross-site or same-site, with 403 and no session", async () => {
      for (const site of ["cross-site", "same-site"]) {
        const response = await login({ "sec-fetch-site": site, origin: "http://evil.example" });
        assert.equal(response.statusCode, 403, site);
        assert.equal(errorMessageOf(response.body), "Cross-site request refused !!!");
        assert.equal(sessionCookieOf(response), undefined);
      }
    });

    it("refuses a sign-up from another origin when the browser sends only Origin", async () => {
      const response = await postForm(
        suite.app,
        "/signup",
        { email: "victim@example.com", password1: "x", password2: "x" },
        { headers: { origin: "http://evil.example" } },
      );
      assert.equal(response.statusCode, 403);
      const stored = await suite.storage.db.query("SELECT 1 FROM user_tbl WHERE email_id = $1", [
        "victim@example.com",
      ]);
      assert.equal(stored.rows.length, 0);
    });

    it("refuses an opaque Origin (null) and an Origin on another port", async () => {
      assert.equal((await login({ origin: "null" })).statusCode, 403);
      assert.equal((await login({ origin: "http://localhost:8081" })).statusCode, 403);
    });

    it("refuses cross-site note changes from a signed-in user's browser", async () => {
      const cookie = await logIn(suite.app, EMAIL, PASSWORD);
      const response = await postForm(
        suite.app,
        "/notes",
        { body: "forged" },
        { cookie, headers: { "sec-fetch-site": "cross-site" } },
      );
      assert.equal(response.statusCode, 403);
      const page = await suite.app.inject({ method: "POST", url: "/secure", headers: { cookie } });
      assert.ok(!page.body.includes("forged"));
    });

    it("lets same-origin browser posts through (Sec-Fetch-Site, or Origin equal to the host)", async () => {
      assert.equal(
        (await login({ "sec-fetch-site": "same-origin", origin: "http://localhost:80" }))
          .statusCode,
        307,
      );
      assert.equal((await login({ origin: "http://localhost" })).statusCode, 307);
      assert.equal((await login({ "sec-fetch-site": "none" })).statusCode, 307);
    });

    it("lets non-browser clients without Origin through with only the spec's fields", async () => {
      assert.equal((await login({})).statusCode, 307);
    });

    it("does not check safe methods: a cross-site GET of the welcome page works", async () => {
      const response = await suite.app.inject({
        method: "GET",
        url: "/",
        headers: { "sec-fetch-site": "cross-site" },
      });
      assert.equal(response.statusCode, 200);
    });

    it("sends a CSP without script, frame denial and nosniff on pages, redirects, errors and static files", async () => {
      const responses = [
        await suite.app.inject({ method: "GET", url: "/" }),
        await suite.app.inject({ method: "POST", url: "/secure" }),
        await postForm(suite.app, "/login", { email: "" }),
        await suite.app.inject({ method: "GET", url: "/static/bootstrap.min.css" }),
        await suite.app.inject({ method: "PUT", url: "/" }),
      ];
      for (const response of responses) {
        const csp = String(response.headers["content-security-policy"]);
        assert.match(csp, /default-src 'none'/);
        assert.doesNotMatch(csp, /script-src|unsafe-inline/);
        assert.match(csp, /frame-ancestors 'none'/);
        assert.equal(response.headers["x-frame-options"], "DENY");
        assert.equal(response.headers["x-content-type-options"], "nosniff");
      }
    });

    it("contains no inline script or inline style in any page", async () => {
      const cookie = await logIn(suite.app, EMAIL, PASSWORD);
      const pages = [
        await suite.app.inject({ method: "GET", url: "/" }),
        await suite.app.inject({ method: "GET", url: "/signup" }),
        await suite.app.inject({ method: "GET", url: "/login" }),
        await postForm(suite.app, "/login", { email: "" }),
        await suite.app.inject({ method: "POST", url: "/secure", headers: { cookie } }),
      ];
      for (const page of pages) {
        assert.doesNotMatch(page.body, /<script|\sstyle=|\son[a-z]+=/i);
      }
    });
  });

  describe(`login throttling on ${target.name}`, { skip: target.skip }, () => {
    const suite = useTestApp(target, {
      NOTES_LOGIN_MAX_FAILURES: "3",
      NOTES_LOGIN_WINDOW: "600",
    });
    before(async () => {
      await signUp(suite.app, EMAIL, PASSWORD);
      await signUp(suite.app, "erin@example.com", "erin-password");
    });

    it("blocks an email after 3 failures, even with the right password, from any address", async () => {
      for (let i = 0; i < 3; i++) {
        const response = await postForm(
          suite.app,
          "/login",
          { email: EMAIL, password: "wrong" },
          { remoteAddress: `10.0.0.${i}` },
        );
        assert.equal(errorMessageOf(response.body), "Invalid password !!!");
      }
      const blocked = await postForm(
        suite.app,
        "/login",
        { email: EMAIL, password: PASSWORD },
        { remoteAddress: "10.0.0.9" },
      );
      assert.equal(blocked.statusCode, 429);
      assert.equal(
        errorMessageOf(blocked.body),
        "Too many failed logins, try again in 10 minutes !!!",
      );
      assert.equal(blocked.headers["retry-after"], "600");
      assert.equal(sessionCookieOf(blocked), undefined);
    });

    it("checks at most 3 of 120 simultaneous guesses for one email; the rest are throttled", async () => {
      await signUp(suite.app, "race@example.com", "race-password");
      const guesses = Array.from({ length: 120 }, (_, i) =>
        postForm(
          suite.app,
          "/login",
          { email: "race@example.com", password: i === 119 ? "race-password" : `guess-${i}` },
          { remoteAddress: `10.1.${Math.floor(i / 100)}.${i % 100}` },
        ),
      );
      const answers = await Promise.all(guesses);
      const checked = answers.filter((a) => a.statusCode !== 429);
      assert.ok(checked.length <= 3, `${checked.length} guesses were checked`);
      assert.equal(answers.filter((a) => a.statusCode === 429).length, 120 - checked.length);
      // The right password came last: its place was already taken by wrong guesses.
      assert.equal(sessionCookieOf(answers[119] as (typeof answers)[number]), undefined);
    });

    it("checks at most 3 of 120 simultaneous guesses from one address across emails", async () => {
      for (const n of [0, 1, 2, 3]) await signUp(suite.app, `spray-${n}@example.com`, "spray-pw");
      const answers = await Promise.all(
        Array.from({ length: 120 }, (_, i) =>
          postForm(
            suite.app,
            "/login",
            { email: `spray-${i % 4}@example.com`, password: `guess-${i}` },
            { remoteAddress: "198.51.100.9" },
          ),
        ),
      );
      const checked = answers.filter((a) => a.statusCode !== 429);
      assert.ok(checked.length <= 3, `${checked.length} guesses were checked`);
    });

    it("leaves other emails alone", async () => {
      const response = await postForm(
        suite.app,
        "/login",
        { email: "erin@example.com", password: "erin-password" },
        { remoteAddress: "10.0.0.20" },
      );
      assert.equal(response.statusCode, 307);
    });

    it("blocks a client address after 3 failures across different emails", async () => {
      const address = "192.0.2.7";
      for (const email of ["u1@example.com", "u2@example.com", "u3@example.com"]) {
        const response = await postForm(
          suite.app,
          "/login",
          { email, password: "x" },
          { remoteAddress: address },
        );
        assert.equal(errorMessageOf(response.body), "Invalid email !!!");
      }
      const blocked = await postForm(
        suite.app,
        "/login",
        { email: "erin@example.com", password: "erin-password" },
        { remoteAddress: address },
      );
      assert.equal(blocked.statusCode, 429);
      const elsewhere = await postForm(
        suite.app,
        "/login",
        { email: "erin@example.com", password: "erin-password" },
        { remoteAddress: "192.0.2.8" },
      );
      assert.equal(elsewhere.statusCode, 307);
    });

    it("does not count blank fields as failures", async () => {
      const address = "198.51.100.1";
      for (let i = 0; i < 5; i++) {
        await postForm(
          suite.app,
          "/login",
          { email: "", password: "" },
          { remoteAddress: address },
        );
      }
      const response = await postForm(
        suite.app,
        "/login",
        { email: "erin@example.com", password: "erin-password" },
        { remoteAddress: address },
      );
      assert.equal(response.statusCode, 307);
    });
  });
}
