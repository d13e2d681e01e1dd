import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { describe, it } from "node:test";
import { createSessionCodec, readCookie } from "./session.js";

const SECRET = "unit-test-secret-0123456789";

describe("the session codec", () => {
  it("reads back the session it issued", () => {
    const codec = createSessionCodec({ secret: SECRET, maxAgeSeconds: 60 });
    const session = codec.read(codec.issue("a@example.com"));
    assert.equal(session?.logged_user_id, "a@example.com");
    assert.match(session?.sid ?? "", /^[\w-]{22}$/);
  });

  it("issues a different session id every time", () => {
    const codec = createSessionCodec({ secret: SECRET, maxAgeSeconds: 60 });
    assert.notEqual(codec.read(codec.issue("a@x.io"))?.sid, codec.read(codec.issue("a@x.io"))?.sid);
  });

  it("rejects a value whose payload was changed but signature kept", () => {
    const codec = createSessionCodec({ secret: SECRET, maxAgeSeconds: 60 });
    const [, signature] = codec.issue("a@example.com").split(".");
    const payload = Buffer.from(
      JSON.stringify({
        logged_user_id: "b@example.com",
        sid: "s",
        iat: Math.floor(Date.now() / 1000),
      }),
    ).toString("base64url");
    assert.equal(codec.read(`${payload}.${signature}`), undefined);
  });

  it("rejects values signed with another secret", () => {
    const mine = createSessionCodec({ secret: SECRET, maxAgeSeconds: 60 });
    const theirs = createSessionCodec({ secret: `${SECRET}-other`, maxAgeSeconds: 60 });
    assert.equal(mine.read(theirs.issue("a@example.com")), undefined);
  });

  it("carries the session version it was issued at, and refuses a payload without one", () => {
    const codec = createSessionCodec({ secret: SECRET, maxAgeSeconds: 60 });
    assert.equal(codec.read(codec.issue("a@example.com", 7))?.ver, 7);
    const json = JSON.stringify({ logged_user_id: "a@x.io", sid: "s", iat: Date.now() / 1000 });
    const payload = Buffer.from(json).toString("base64url");
    const sig = createHmac("sha256", SECRET).update(payload).digest("base64url");
    assert.equal(codec.read(`${payload}.${sig}`), undefined);
  });

  it("rejects malformed values without throwing", () => {
    const codec = createSessionCodec({ secret: SECRET, maxAgeSeconds: 60 });
    for (const value of [undefined, "", ".", "abc", ".sig", "a.b.c", "%%%.%%%"]) {
      assert.equal(codec.read(value), undefined, String(value));
    }
  });

  it("rejects a correctly signed payload that is not a session", () => {
    const codec = createSessionCodec({ secret: SECRET, maxAgeSeconds: 60 });
    for (const json of [
      "[]",
      '{"logged_user_id":""}',
      '{"logged_user_id":1,"sid":"s","iat":0}',
      "not json",
    ]) {
      const payload = Buffer.from(json).toString("base64url");
      const sig = createHmac("sha256", SECRET).update(payload).digest("base64url");
      assert.equal(codec.read(`${payload}.${sig}`), undefined, json);
    }
  });

  it("expires a session after its maximum age", () => {
    let now = 1_000_000_000_000;
    const codec = createSessionCodec({ secret: SECRET, maxAgeSeconds: 60, now: () => now });
    const value = codec.issue("a@example.com");
    now += 60_000;
    assert.ok(codec.read(value));
    now += 1_000;
    assert.equal(codec.read(value), undefined);
  });

  it("writes HttpOnly SameSite=Lax cookies, Secure only over TLS", () => {
    const codec = createSessionCodec({ secret: SECRET, maxAgeSeconds: 60 });
    assert.equal(
      codec.setCookie("v", false),
      "notes_session=v; Max-Age=60; Path=/; HttpOnly; SameSite=Lax",
    );
    assert.equal(
      codec.clearCookie(true),
      "notes_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax; Secure",
    );
  });
});

describe("readCookie", () => {
  it("finds a cookie among others and ignores lookalike names", () => {
    const header = "a=1; xnotes_session=bad; notes_session=good.sig ; b=2";
    assert.equal(readCookie(header, "notes_session"), "good.sig");
    assert.equal(readCookie(header, "missing"), undefined);
    assert.equal(readCookie(undefined, "a"), undefined);
  });
});
