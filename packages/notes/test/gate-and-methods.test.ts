import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { STORAGE_TARGETS } from "./support/storage-targets.js";
import { errorMessageOf, logIn, signUp, useTestApp } from "./support/test-app.js";

/** Every method the app could be asked; Fastify answers each (light-my-request sends any). */
const ALL_METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"] as const;

/** The spec's paths (plus the notes actions) and the methods each accepts. */
const ROUTES: ReadonlyArray<{ path: string; allow: string; open: boolean }> = [
  { path: "/", allow: "GET, HEAD", open: true },
  { path: "/signup", allow: "GET, HEAD, POST", open: true },
  { path: "/login", allow: "GET, HEAD, POST", open: true },
  { path: "/static/bootstrap.min.css", allow: "GET, HEAD", open: true },
  { path: "/secure", allow: "POST", open: false },
  { path: "/logout", allow: "GET, HEAD", open: false },
  { path: "/static/notes.css", allow: "GET, HEAD", open: false },
  { path: "/notes", allow: "POST", open: false },
  { path: "/notes/delete", allow: "POST", open: false },
];

for (const target of STORAGE_TARGETS) {
  describe(`the gate and allowed methods on ${target.name}`, { skip: target.skip }, () => {
    const suite = useTestApp(target);
    let cookie: string;
    before(async () => {
      await signUp(suite.app, "gate@example.com", "gate-password");
      cookie = await logIn(suite.app, "gate@example.com", "gate-password");
    });

    it("serves every open path without a session", async () => {
      for (const [path, type] of [
        ["/", /^text\/html/],
        ["/signup", /^text\/html/],
        ["/login", /^text\/html/],
        ["/static/bootstrap.min.css", /^text\/css/],
      ] as const) {
        const response = await suite.app.inject({ method: "GET", url: path });
        assert.equal(response.statusCode, 200, path);
        assert.match(response.headers["content-type"] as string, type, path);
      }
    });

    it("renders the login form on GET /login", async () => {
      const response = await suite.app.inject({ method: "GET", url: "/login" });
      assert.match(response.body, /<form method="post" action="\/login"[^>]*>/);
      assert.match(response.body, /name="email"/);
      assert.match(response.body, /name="password"/);
    });

    it("serves Bootstrap's own stylesheet from the bootstrap package", async () => {
      const response = await suite.app.inject({ method: "GET", url: "/static/bootstrap.min.css" });
      assert.match(response.body, /Bootstrap\s+v5/);
    });

    it("redirects anonymous requests for every closed path to /login, whatever the method", async () => {
      const closed = [
        ["POST", "/secure"],
        ["GET", "/secure"],
        ["GET", "/logout"],
        ["GET", "/static/notes.css"],
        ["GET", "/static/notes-logo.svg"],
        ["GET", "/static/bootstrap.css"],
        ["POST", "/notes"],
        ["GET", "/no-such-page"],
        ["GET", "/signup/"],
        ["DELETE", "/secure"],
      ] as const;
      for (const [method, url] of closed) {
        const response = await suite.app.inject({ method, url });
        assert.equal(response.statusCode, 302, `${method} ${url}`);
        assert.equal(response.headers.location, "/login", `${method} ${url}`);
      }
    });

    it("keeps open paths open when a query string is added", async () => {
      const response = await suite.app.inject({ method: "GET", url: "/?from=mail" });
      assert.equal(response.statusCode, 200);
    });

    it("lets a signed-in user reach closed paths, including the app's own static files", async () => {
      const css = await suite.app.inject({
        method: "GET",
        url: "/static/notes.css",
        headers: { cookie },
      });
      assert.equal(css.statusCode, 200);
      assert.match(css.headers["content-type"] as string, /^text\/css/);
      const logo = await suite.app.inject({
        method: "GET",
        url: "/static/notes-logo.svg",
        headers: { cookie },
      });
      assert.equal(logo.statusCode, 200);
      assert.match(logo.headers["content-type"] as string, /^image\/svg\+xml/);
    });

    for (const route of ROUTES) {
      const allowed = route.allow.split(", ");
      for (const method of ALL_METHODS.filter((m) => !allowed.includes(m))) {
        it(`answers ${method} ${route.path} with 405 and Allow: ${route.allow}`, async () => {
          const response = await suite.app.inject({ method, url: route.path, headers: { cookie } });
          assert.equal(response.statusCode, 405);
          assert.equal(response.headers.allow, route.allow);
          if (method !== "HEAD") {
            assert.equal(
              errorMessageOf(response.body),
              `Method ${method} is not allowed on ${route.path} !!!`,
            );
          }
        });
      }
    }

    it("answers HEAD like GET on GET paths", async () => {
      const response = await suite.app.inject({ method: "HEAD", url: "/" });
      assert.equal(response.statusCode, 200);
      assert.equal(response.body, "");
    });

    it("answers a signed-in user's unknown path with a 404 page", async () => {
      const response = await suite.app.inject({
        method: "GET",
        url: "/no-such-page",
        headers: { cookie },
      });
      assert.equal(response.statusCode, 404);
      assert.equal(errorMessageOf(response.body), "Page not found !!!");
    });

    it("answers a signed-in user's missing static file with 404", async () => {
      const response = await suite.app.inject({
        method: "GET",
        url: "/static/missing.png",
        headers: { cookie },
      });
      assert.equal(response.statusCode, 404);
    });
  });
}
