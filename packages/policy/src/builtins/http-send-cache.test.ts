import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { cacheControl, canStore, expiryFromHeaders, parseHttpDate } from "./http-send-cache.js";
import { canonicalHeaderName } from "./http-send-request.js";

const headers = (h: Record<string, string>) =>
  new Map(Object.entries(h).map(([k, v]) => [k, [v]] as [string, string[]]));

describe("http.send caching rules", () => {
  it("reads Cache-Control directives, skipping malformed ones", () => {
    const cc = cacheControl(headers({ "cache-control": "public, max-age=60 ,no-cache, a=b=c" }));
    assert.deepEqual(
      [...cc],
      [
        ["public", ""],
        ["max-age", "60"],
        ["no-cache", ""],
      ],
    );
    assert.equal(canStore(headers({ "cache-control": "no-store" })), false);
    assert.equal(canStore(headers({ "cache-control": "max-age=5" })), true);
    assert.equal(canStore(new Map()), true);
  });

  it("expires max-age seconds after Date, else at Expires, else at once", () => {
    const date = "Mon, 02 Jan 2006 15:04:05 GMT";
    const at = Date.parse(date);
    assert.equal(expiryFromHeaders(headers({ "cache-control": "max-age=60", date })), at + 60_000);
    assert.equal(
      expiryFromHeaders(headers({ "cache-control": "max-age=99999999999", date })),
      at + (2 ** 31 - 1) * 1000,
    );
    assert.equal(expiryFromHeaders(headers({ expires: date })), at);
    assert.equal(expiryFromHeaders(headers({ expires: "0" })), 0);
    assert.equal(expiryFromHeaders(new Map()), 0);
  });

  it("refuses max-age without a usable Date, or not a number", () => {
    assert.throws(() => expiryFromHeaders(headers({ "cache-control": "max-age=60" })), {
      message: "no date header",
    });
    assert.throws(
      () =>
        expiryFromHeaders(
          headers({ "cache-control": "max-age=soon", date: "Mon, 02 Jan 2006 15:04:05 GMT" }),
        ),
      { message: "invalid max-age: soon" },
    );
  });

  it("parses the three HTTP date forms and nothing else", () => {
    assert.equal(parseHttpDate("Mon, 02 Jan 2006 15:04:05 GMT"), Date.UTC(2006, 0, 2, 15, 4, 5));
    assert.equal(parseHttpDate("Monday, 02-Jan-06 15:04:05 GMT"), Date.UTC(2006, 0, 2, 15, 4, 5));
    assert.equal(parseHttpDate("Mon Jan  2 15:04:05 2006"), Date.UTC(2006, 0, 2, 15, 4, 5));
    assert.equal(parseHttpDate("0"), undefined);
    assert.equal(parseHttpDate("tomorrow"), undefined);
  });

  it("writes header names in Go's canonical form", () => {
    assert.equal(canonicalHeaderName("content-type"), "Content-Type");
    assert.equal(canonicalHeaderName("X-API-KEY"), "X-Api-Key");
    assert.equal(canonicalHeaderName("etag"), "Etag");
    assert.equal(canonicalHeaderName("bad header"), "bad header");
  });
});
