import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { crossSiteReason, isSameHost } from "./cross-site.js";

describe("crossSiteReason", () => {
  const host = "notes.example:8080";

  it("lets safe methods through whatever their origin", () => {
    assert.equal(crossSiteReason("GET", { "sec-fetch-site": "cross-site" }, host), undefined);
    assert.equal(crossSiteReason("HEAD", { origin: "http://evil.example" }, host), undefined);
  });

  it("checks GET /logout like a state change: another site cannot sign the user out", () => {
    const fromSite = (site: string) =>
      crossSiteReason("GET", { "sec-fetch-site": site }, host, "/logout");
    assert.equal(fromSite("cross-site"), "Sec-Fetch-Site is cross-site");
    assert.equal(fromSite("same-site"), "Sec-Fetch-Site is same-site");
    assert.equal(fromSite("same-origin"), undefined);
    assert.equal(fromSite("none"), undefined);
  });

  it("prefers Sec-Fetch-Site when the browser sends it", () => {
    assert.equal(
      crossSiteReason(
        "POST",
        { "sec-fetch-site": "same-origin", origin: "http://evil.example" },
        host,
      ),
      undefined,
    );
    assert.equal(
      crossSiteReason("POST", { "sec-fetch-site": "cross-site" }, host),
      "Sec-Fetch-Site is cross-site",
    );
    assert.equal(
      crossSiteReason("POST", { "sec-fetch-site": "same-site" }, host),
      "Sec-Fetch-Site is same-site",
    );
  });

  it("falls back to comparing Origin with the Host", () => {
    assert.equal(crossSiteReason("POST", { origin: "http://notes.example:8080" }, host), undefined);
    assert.match(
      crossSiteReason("DELETE", { origin: "http://notes.example" }, host) ?? "",
      /not this host/,
    );
    assert.match(crossSiteReason("PUT", { origin: "null" }, host) ?? "", /not this host/);
  });

  it("falls back to Referer without Sec-Fetch-Site and Origin (plain HTTP, a host name)", () => {
    const logout = (referer: string) => crossSiteReason("GET", { referer }, host, "/logout");
    assert.equal(logout("http://notes.example:8080/"), undefined);
    assert.equal(
      logout("http://evil.example/page?secret=1"),
      "Referer from http://evil.example is not this host",
    );
    assert.match(logout("junk") ?? "", /Referer from an unparsable URL/);
    assert.match(
      crossSiteReason("POST", { referer: "http://evil.example/" }, host) ?? "",
      /Referer/,
    );
    assert.match(
      crossSiteReason(
        "GET",
        { origin: "http://evil.example", referer: `http://${host}/` },
        host,
        "/logout",
      ) ?? "",
      /Origin/,
      "Origin is read before Referer",
    );
  });

  it("does not check HEAD /logout, which changes nothing", () => {
    assert.equal(
      crossSiteReason("HEAD", { referer: "http://evil.example/" }, host, "/logout"),
      undefined,
    );
  });

  it("lets clients that send none of the headers through", () => {
    assert.equal(crossSiteReason("POST", {}, host), undefined);
  });
});

describe("isSameHost", () => {
  it("treats a written-out default port as no port", () => {
    assert.equal(isSameHost("http://localhost/", "localhost:80"), true);
    assert.equal(isSameHost("https://a.example:443/x", "a.example"), true);
  });

  it("is false for other hosts, other ports and unparsable URLs", () => {
    assert.equal(isSameHost("http://b.example/", "a.example"), false);
    assert.equal(isSameHost("http://a.example:81/", "a.example"), false);
    assert.equal(isSameHost("not a url", "a.example"), false);
  });
});
