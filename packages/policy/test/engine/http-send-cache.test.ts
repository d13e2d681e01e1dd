/** `http.send`'s inter-query cache (`cache`, `force_cache`) with OPA's caching rules. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { InterQueryCache } from "../../src/builtins/http-send-cache.js";
import { engineWith, evalAsync, startServer, type TestServer } from "./network-helpers.js";

const SEND = "package p\nresp := http.send(input.req)\nbody := resp.raw_body\n";
const SECOND_NS = 1_000_000_000n;

describe("http.send inter-query cache", () => {
  let server: TestServer;
  /** Responses served per path (a fresh body each time: "<path> #n"). */
  const served = new Map<string, number>();
  before(async () => {
    server = await startServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://x");
      const n = (served.get(url.pathname) ?? 0) + 1;
      const body = `${url.pathname} #${n}`;
      const respond = (): void => {
        served.set(url.pathname, n);
        res.end(body);
      };
      switch (url.pathname) {
        case "/max-age":
          res.setHeader("Cache-Control", "public, max-age=60");
          return respond();
        case "/no-store":
          res.setHeader("Cache-Control", "no-store, max-age=60");
          return respond();
        case "/error-max-age":
          res.statusCode = 500;
          res.setHeader("Cache-Control", "max-age=60");
          return respond();
        case "/expires-later":
          res.setHeader("Expires", new Date(Date.now() + 60_000).toUTCString());
          return respond();
        case "/expires-zero":
          res.setHeader("Expires", "0");
          return respond();
        case "/etag":
          res.setHeader("Cache-Control", "max-age=0");
          res.setHeader("ETag", '"v1"');
          if (req.headers["if-none-match"] === '"v1"') {
            res.statusCode = 304;
            res.setHeader("X-Revalidated", "yes");
            res.end();
            return;
          }
          return respond();
        case "/last-modified":
          res.setHeader("Cache-Control", "no-cache");
          res.setHeader("Last-Modified", "Mon, 02 Jan 2006 15:04:05 GMT");
          if (req.headers["if-modified-since"] === "Mon, 02 Jan 2006 15:04:05 GMT") {
            res.statusCode = 304;
            res.end();
            return;
          }
          return respond();
        case "/etag-changed":
          // Revalidation answers 200 with a new version.
          res.setHeader("Cache-Control", "max-age=0");
          res.setHeader("ETag", `"v${n}"`);
          return respond();
        default:
          return respond();
      }
    });
  });
  after(() => server.close());

  const reqTo = (path: string, extra: Record<string, unknown> = {}) => ({
    req: { method: "GET", url: `${server.base}${path}`, ...extra },
  });
  const hits = (path: string): number =>
    server.requests.filter((r) => r.url.startsWith(path)).length;

  it("keeps a response for its max-age, counted from Date, across queries", async () => {
    const e = engineWith(SEND);
    const now = BigInt(Date.now()) * 1_000_000n;
    const first = await evalAsync(e, "data.p.body", reqTo("/max-age", { cache: true }), {
      nowNs: now,
    });
    const second = await evalAsync(e, "data.p.body", reqTo("/max-age", { cache: true }), {
      nowNs: now + 30n * SECOND_NS,
    });
    assert.equal(first, second);
    assert.equal(hits("/max-age"), 1);
    assert.equal(e.interQueryCache.size, 1);
    // Past max-age the entry is stale; with no validator it is fetched again.
    const later = await evalAsync(e, "data.p.body", reqTo("/max-age", { cache: true }), {
      nowNs: now + 120n * SECOND_NS,
    });
    assert.notEqual(later, first);
    assert.equal(hits("/max-age"), 2);
  });

  it("does not cache without `cache`, nor with no-store, nor for a status OPA does not cache", async () => {
    const e = engineWith(SEND);
    for (const [path, extra] of [
      ["/max-age?plain", {}],
      ["/no-store", { cache: true }],
      ["/error-max-age", { cache: true }],
      ["/expires-zero", { cache: true }],
    ] as const) {
      const a = await evalAsync(e, "data.p.body", reqTo(path, extra));
      const b = await evalAsync(e, "data.p.body", reqTo(path, extra));
      assert.notEqual(a, b, path);
      assert.equal(hits(path), 2, path);
    }
  });

  it("honours Expires when there is no max-age", async () => {
    const e = engineWith(SEND);
    const a = await evalAsync(e, "data.p.body", reqTo("/expires-later", { cache: true }));
    const b = await evalAsync(e, "data.p.body", reqTo("/expires-later", { cache: true }));
    assert.equal(a, b);
    assert.equal(hits("/expires-later"), 1);
  });

  it("force_cache keeps even a no-store response for force_cache_duration_seconds", async () => {
    const e = engineWith(SEND);
    const now = BigInt(Date.now()) * 1_000_000n;
    const forced = { force_cache: true, force_cache_duration_seconds: 10 };
    const path = "/no-store?forced";
    const a = await evalAsync(e, "data.p.body", reqTo(path, forced), { nowNs: now });
    const b = await evalAsync(e, "data.p.body", reqTo(path, forced), {
      nowNs: now + 9n * SECOND_NS,
    });
    assert.equal(a, b);
    assert.equal(hits(path), 1);
    const c = await evalAsync(e, "data.p.body", reqTo(path, forced), {
      nowNs: now + 11n * SECOND_NS,
    });
    assert.notEqual(c, a);
    assert.equal(hits(path), 2);
  });

  it("revalidates a stale entry with If-None-Match and serves it on 304 with updated headers", async () => {
    const e = engineWith(SEND);
    const a = await evalAsync(e, "data.p.resp", reqTo("/etag", { cache: true }));
    const b = (await evalAsync(e, "data.p.resp", reqTo("/etag", { cache: true }))) as Record<
      string,
      unknown
    >;
    assert.equal(b.raw_body, (a as Record<string, unknown>).raw_body);
    assert.equal(b.status_code, 200);
    assert.deepEqual((b.headers as Record<string, string[]>)["x-revalidated"], ["yes"]);
    const sent = server.requests.filter((r) => r.url === "/etag");
    assert.equal(sent.length, 2);
    assert.equal(sent[1]?.headers["if-none-match"], '"v1"');
    assert.equal(served.get("/etag"), 1);
  });

  it("revalidates with If-Modified-Since from Last-Modified", async () => {
    const e = engineWith(SEND);
    const a = await evalAsync(e, "data.p.body", reqTo("/last-modified", { cache: true }));
    const b = await evalAsync(e, "data.p.body", reqTo("/last-modified", { cache: true }));
    assert.equal(a, b);
    assert.equal(hits("/last-modified"), 2);
    assert.equal(served.get("/last-modified"), 1);
  });

  it("replaces the entry when revalidation answers 200", async () => {
    const e = engineWith(SEND);
    const a = await evalAsync(e, "data.p.body", reqTo("/etag-changed", { cache: true }));
    const b = await evalAsync(e, "data.p.body", reqTo("/etag-changed", { cache: true }));
    assert.equal(a, "/etag-changed #1");
    assert.equal(b, "/etag-changed #2");
  });

  it("shares an entry between requests differing only in cache_ignored_headers", async () => {
    const e = engineWith(SEND);
    const path = "/max-age?ignored";
    const req = (id: string) =>
      reqTo(path, {
        cache: true,
        headers: { "X-Request-Id": id },
        cache_ignored_headers: ["X-Request-Id"],
      });
    const a = await evalAsync(e, "data.p.body", req("1"));
    const b = await evalAsync(e, "data.p.body", req("2"));
    assert.equal(a, b);
    assert.equal(hits(path), 1);
  });

  it("is shared by engines given the same cache, and by withData copies", async () => {
    const shared = new InterQueryCache();
    const path = "/max-age?shared";
    const one = engineWith(SEND, { interQueryCache: shared });
    const two = engineWith(SEND, { interQueryCache: shared });
    const a = await evalAsync(one, "data.p.body", reqTo(path, { cache: true }));
    const b = await evalAsync(two, "data.p.body", reqTo(path, { cache: true }));
    const c = await evalAsync(
      one.withData(one.baseData()),
      "data.p.body",
      reqTo(path, { cache: true }),
    );
    assert.equal(a, b);
    assert.equal(a, c);
    assert.equal(hits(path), 1);
  });
});

describe("InterQueryCache bounds", () => {
  const entry = (bodySize: number) => ({
    statusCode: 200,
    status: "200 OK",
    headers: new Map<string, string[]>(),
    body: Buffer.alloc(bodySize),
    expiresAtMs: Date.now() + 60_000,
  });

  it("drops the oldest entries past max_size_bytes and refuses an entry larger than the bound", () => {
    const c = new InterQueryCache({ maxSizeBytes: 1000 });
    c.insert("a", entry(400));
    c.insert("b", entry(400));
    assert.equal(c.size, 2);
    c.insert("c", entry(400));
    assert.equal(c.get("a"), undefined);
    assert.ok(c.get("b") && c.get("c"));
    assert.ok(c.bytes <= 1000);
    c.insert("huge", entry(5000));
    assert.equal(c.get("huge"), undefined);
  });

  it("starts evicting at forced_eviction_threshold_percentage", () => {
    const c = new InterQueryCache({ maxSizeBytes: 1000, forcedEvictionThresholdPercentage: 50 });
    c.insert("a", entry(300));
    c.insert("b", entry(300));
    assert.equal(c.size, 1);
    assert.ok(c.get("b"));
  });

  it("has no bound by default", () => {
    const c = new InterQueryCache();
    for (let i = 0; i < 50; i++) c.insert(String(i), entry(100_000));
    assert.equal(c.size, 50);
    c.clear();
    assert.equal(c.size, 0);
    assert.equal(c.bytes, 0);
  });
});
