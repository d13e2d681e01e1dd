/** GET /metrics: open without a session; requests, logins and throttled attempts counted. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { sampleValue } from "@quintet/kit";
import { STORAGE_TARGETS } from "./support/storage-targets.js";
import { postForm, signUp, useTestApp } from "./support/test-app.js";

const target = STORAGE_TARGETS[0];
if (!target) throw new Error("no storage target");

describe("GET /metrics", () => {
  const suite = useTestApp(target, { NOTES_LOGIN_MAX_FAILURES: "2" });

  async function scrape(): Promise<string> {
    const response = await suite.app.inject({ method: "GET", url: "/metrics" });
    assert.equal(response.statusCode, 200, "open without a session");
    assert.match(response.headers["content-type"] as string, /^text\/plain; version=0\.0\.4/);
    return response.body;
  }

  it("counts requests by route and code, logins by outcome and throttled attempts", async () => {
    const before = await scrape();
    await signUp(suite.app, "dora@example.com", "right pass");
    const login = (password: string, email = "dora@example.com") =>
      postForm(suite.app, "/login", { email, password });
    assert.equal((await login("right pass")).statusCode, 307);
    assert.equal((await login("wrong 1")).statusCode, 401);
    assert.equal((await login("wrong 2")).statusCode, 401);
    assert.equal((await login("right pass")).statusCode, 429, "the third attempt is throttled");
    assert.equal((await login("x", " ")).statusCode, 400);
    const gated = await suite.app.inject({ method: "GET", url: "/secure" });
    assert.equal(gated.statusCode, 302);

    const after = await scrape();
    const moved = (name: string, labels: Record<string, string> = {}) =>
      sampleValue(after, name, labels) - sampleValue(before, name, labels);
    assert.equal(moved("notes_logins_total", { outcome: "success" }), 1);
    assert.equal(moved("notes_logins_total", { outcome: "failure" }), 2);
    assert.equal(moved("notes_logins_total", { outcome: "throttled" }), 1);
    assert.equal(moved("notes_logins_total", { outcome: "invalid" }), 1);
    assert.equal(moved("notes_login_throttled_total"), 1);
    const loginPost = { method: "POST", route: "/login" };
    assert.equal(moved("notes_http_requests_total", { ...loginPost, code: "401" }), 2);
    assert.equal(moved("notes_http_request_duration_seconds_count", loginPost), 5);
    assert.equal(moved("notes_http_requests_total", { method: "POST", route: "/signup" }), 1);
    assert.equal(moved("notes_http_requests_total", { route: "/secure", code: "302" }), 1);
    assert.equal(moved("notes_http_requests_total", { route: "/metrics", code: "200" }), 1);
    assert.ok(sampleValue(after, "process_cpu_seconds_total") > 0);
  });
});
