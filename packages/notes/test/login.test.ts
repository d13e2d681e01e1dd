import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { STORAGE_TARGETS } from "./support/storage-targets.js";
import {
  backHrefOf,
  createTestApp,
  errorMessageOf,
  logIn,
  postForm,
  sessionCookieOf,
  signUp,
  useTestApp,
} from "./support/test-app.js";

const EMAIL = "carol@example.com";
const PASSWORD = "s3cret pass";

/** Rows of the spec's login error table, in its order. */
const ERROR_ROWS: ReadonlyArray<{
  name: string;
  fields: Record<string, string>;
  message: string;
  status: number;
}> = [
  {
    name: "email blank",
    fields: { email: " ", password: PASSWORD },
    message: "Invalid email !!!",
    status: 400,
  },
  {
    name: "email missing",
    fields: { password: PASSWORD },
    message: "Invalid email !!!",
    status: 400,
  },
  {
    name: "password blank",
    fields: { email: EMAIL, password: "" },
    message: "Invalid password !!!",
    status: 400,
  },
  {
    name: "password missing",
    fields: { email: EMAIL },
    message: "Invalid password !!!",
    status: 400,
  },
  {
    name: "both blank (email is checked first)",
    fields: { email: "", password: "" },
    message: "Invalid email !!!",
    status: 400,
  },
  {
    name: "email not registered",
    fields: { email: "nobody@example.com", password: PASSWORD },
    message: "Invalid email !!!",
    status: 401,
  },
  {
    name: "email not registered and over 64 characters",
    fields: { email: `${"n".repeat(70)}@x.io`, password: "x" },
    message: "Invalid email !!!",
    status: 401,
  },
  {
    name: "password does not match",
    fields: { email: EMAIL, password: "wrong" },
    message: "Invalid password !!!",
    status: 401,
  },
];

for (const target of STORAGE_TARGETS) {
  describe(`POST /login and the session on ${target.name}`, { skip: target.skip }, () => {
    const suite = useTestApp(target);
    before(async () => {
      await signUp(suite.app, EMAIL, PASSWORD);
    });

    for (const row of ERROR_ROWS) {
      it(`answers "${row.message}" with status ${row.status} and no session when ${row.name}`, async () => {
        const response = await postForm(suite.app, "/login", row.fields);
        assert.equal(response.statusCode, row.status);
        assert.equal(errorMessageOf(response.body), row.message);
        assert.equal(sessionCookieOf(response), undefined);
        assert.match(response.body, /<h1 class="h3 mb-3">Login failed<\/h1>/);
      });
    }

    it("links Back to the login form the visitor came from (Referer), else to the welcome page", async () => {
      const fromLogin = await postForm(
        suite.app,
        "/login",
        { email: "" },
        { headers: { referer: "http://localhost:80/login" } },
      );
      assert.equal(backHrefOf(fromLogin.body), "/login");
      const fromWelcome = await postForm(
        suite.app,
        "/login",
        { email: "" },
        { headers: { referer: "http://localhost:80/" } },
      );
      assert.equal(backHrefOf(fromWelcome.body), "/");
      const foreign = await postForm(
        suite.app,
        "/login",
        { email: "" },
        { headers: { referer: "http://evil.example/login" } },
      );
      assert.equal(backHrefOf(foreign.body), "/");
      const none = await postForm(suite.app, "/login", { email: "" });
      assert.equal(backHrefOf(none.body), "/");
    });

    it("redirects to /secure with 307 and sets an HttpOnly, SameSite=Lax signed session cookie", async () => {
      const response = await postForm(suite.app, "/login", { email: EMAIL, password: PASSWORD });
      assert.equal(response.statusCode, 307);
      assert.equal(response.headers.location, "/secure");
      const setCookie = String(response.headers["set-cookie"]);
      // The browser keeps it the session's 86400 s plus the 900 s a note sent after it is kept.
      assert.match(
        setCookie,
        /^notes_session=[\w-]+\.[\w-]+; Max-Age=87300; Path=\/; HttpOnly; SameSite=Lax$/,
      );
      assert.doesNotMatch(setCookie, /Secure/);
    });

    it("marks the cookie Secure when the request came over TLS through a trusted proxy", async () => {
      const proxied = await createTestApp(suite.storage.db, { NOTES_TRUST_PROXY: "true" });
      try {
        const response = await postForm(
          proxied,
          "/login",
          { email: EMAIL, password: PASSWORD },
          { headers: { "x-forwarded-proto": "https" } },
        );
        assert.equal(response.statusCode, 307);
        assert.match(String(response.headers["set-cookie"]), /; Secure$/);
      } finally {
        await proxied.close();
      }
    });

    it("renders the protected page with a link to /logout on POST /secure with the session", async () => {
      const cookie = await logIn(suite.app, EMAIL, PASSWORD);
      const response = await suite.app.inject({
        method: "POST",
        url: "/secure",
        headers: { cookie },
      });
      assert.equal(response.statusCode, 200);
      assert.match(response.body, /<a [^>]*href="\/logout"/);
      assert.match(
        response.body,
        /<span class="navbar-text text-white" id="signed-in-as">carol@example\.com<\/span>/,
      );
    });

    it("also renders /secure when the browser repeats the login form's body there (the 307)", async () => {
      const cookie = await logIn(suite.app, EMAIL, PASSWORD);
      const response = await postForm(
        suite.app,
        "/secure",
        { email: EMAIL, password: PASSWORD },
        { cookie },
      );
      assert.equal(response.statusCode, 200);
      assert.match(response.body, /Your notes/);
    });

    it("starts a new session (different cookie) on every login", async () => {
      const first = await logIn(suite.app, EMAIL, PASSWORD);
      const second = await logIn(suite.app, EMAIL, PASSWORD);
      assert.notEqual(first, second);
    });

    it("treats a tampered cookie as no session: the gate redirects to /login", async () => {
      const cookie = await logIn(suite.app, EMAIL, PASSWORD);
      const [payload, signature] = cookie.slice("notes_session=".length).split(".");
      const forged = Buffer.from(
        JSON.stringify({
          logged_user_id: "admin@example.com",
          sid: "x",
          iat: Math.floor(Date.now() / 1000),
        }),
      ).toString("base64url");
      const variants = [
        `notes_session=${forged}.${signature}`,
        // Two changed characters (a signature that already ends in AA gets BB instead).
        `notes_session=${payload}.${signature?.slice(0, -2)}${signature?.endsWith("AA") ? "BB" : "AA"}`,
        `notes_session=${payload}`,
        "notes_session=garbage",
      ];
      for (const tampered of variants) {
        const response = await suite.app.inject({
          method: "POST",
          url: "/secure",
          headers: { cookie: tampered },
        });
        assert.equal(response.statusCode, 302, tampered);
        assert.equal(response.headers.location, "/login");
      }
    });

    it("refuses a cookie signed with another secret", async () => {
      const other = await createTestApp(suite.storage.db, {
        SESSION_SECRET: "another-secret-0123456789",
      });
      try {
        const cookie = await logIn(other, EMAIL, PASSWORD);
        const response = await suite.app.inject({
          method: "POST",
          url: "/secure",
          headers: { cookie },
        });
        assert.equal(response.statusCode, 302);
      } finally {
        await other.close();
      }
    });

    it("logs out on GET /logout: removes the cookie and returns the welcome page", async () => {
      const cookie = await logIn(suite.app, EMAIL, PASSWORD);
      const response = await suite.app.inject({
        method: "GET",
        url: "/logout",
        headers: { cookie },
      });
      assert.equal(response.statusCode, 200);
      assert.match(
        String(response.headers["set-cookie"]),
        /^notes_session=; Max-Age=0; Path=\/; HttpOnly; SameSite=Lax$/,
      );
      assert.match(response.body, /<form method="post" action="\/login"/);
      assert.match(response.body, /You have logged out\./);
      // The browser drops the cookie; without it the protected page is closed again.
      const after = await suite.app.inject({ method: "POST", url: "/secure" });
      assert.equal(after.statusCode, 302);
      assert.equal(after.headers.location, "/login");
    });

    it("shows a signed-in visitor of / who they are and a way back to their notes", async () => {
      const cookie = await logIn(suite.app, EMAIL, PASSWORD);
      const response = await suite.app.inject({ method: "GET", url: "/", headers: { cookie } });
      assert.match(response.body, /Signed in as <strong>carol@example\.com<\/strong>/);
      assert.match(response.body, /<form method="post" action="\/secure">/);
    });
  });
}
