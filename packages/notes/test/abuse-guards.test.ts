import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { STORAGE_TARGETS } from "./support/storage-targets.js";
import { postForm, signUp, useTestApp } from "./support/test-app.js";

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
