/** `http.send` through `queryAsync`/`evalRefAsync` against real servers started here. */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { MAX_NETWORK_ROUNDS } from "../../src/engine.js";
import { RegoError } from "../../src/errors.js";
import { fromJSON, toJSON } from "../../src/value/value.js";
import {
  closedPort,
  engineWith,
  evalAsync,
  startServer,
  type TestServer,
} from "./network-helpers.js";

const SEND = "package p\nresp := http.send(input.req)\n";

describe("http.send", () => {
  let server: TestServer;
  /** Requests to /never are held open until the end. */
  const held: (() => void)[] = [];
  let flaky = 0;
  before(async () => {
    server = await startServer((req, res, body) => {
      const url = new URL(req.url ?? "/", "http://x");
      switch (url.pathname) {
        case "/json":
          res.setHeader("Content-Type", "application/json; charset=utf-8");
          res.end(
            JSON.stringify({ method: req.method, body, big: 12345678901234567890n.toString() }),
          );
          return;
        case "/bignum":
          res.setHeader("Content-Type", "application/json");
          res.end('{"n": 12345678901234567890}');
          return;
        case "/text":
          res.setHeader("Content-Type", "text/plain");
          res.setHeader("Set-Cookie", ["a=1", "b=2"]);
          res.setHeader("X-Custom", "yes");
          res.end("hello");
          return;
        case "/yaml":
          res.setHeader("Content-Type", "application/yaml");
          res.end("a: 1\nb: [x, z]\n");
          return;
        case "/badjson":
          res.setHeader("Content-Type", "application/json");
          res.end("{not json");
          return;
        case "/status":
          res.statusCode = Number(url.searchParams.get("code"));
          res.end(`status ${res.statusCode}`);
          return;
        case "/echo-headers":
          res.setHeader("Content-Type", "application/json");
          res.end(JSON.stringify(req.headers));
          return;
        case "/redirect":
          res.statusCode = 302;
          res.setHeader("Location", "/json");
          res.end();
          return;
        case "/loop":
          res.statusCode = 302;
          res.setHeader("Location", "/loop");
          res.end();
          return;
        case "/close":
          req.socket.destroy();
          return;
        case "/flaky":
          // Fails (connection closed) twice, then answers.
          if (flaky++ < 2) {
            req.socket.destroy();
            return;
          }
          res.end("third time");
          return;
        case "/never":
          held.push(() => res.end());
          return;
        default:
          res.statusCode = 404;
          res.end("not found");
      }
    });
  });
  after(async () => {
    for (const release of held) release();
    await server.close();
  });

  const send = (req: Record<string, unknown>, options = {}) =>
    evalAsync(engineWith(SEND), "data.p.resp", { req }, options);

  it("answers with OPA's response object: status, status_code, body, raw_body, headers", async () => {
    const r = (await send({
      method: "post",
      url: `${server.base}/json`,
      body: { x: [1, 2] },
    })) as Record<string, unknown>;
    assert.equal(r.status, "200 OK");
    assert.equal(r.status_code, 200);
    assert.deepEqual(r.body, { method: "POST", body: '{"x":[1,2]}', big: "12345678901234567890" });
    assert.equal(typeof r.raw_body, "string");
    const headers = r.headers as Record<string, string[]>;
    assert.deepEqual(headers["content-type"], ["application/json; charset=utf-8"]);
    assert.ok(Array.isArray(headers.date));
  });

  it("decodes JSON numbers exactly", async () => {
    const v = await evalAsync(engineWith(SEND), "data.p.resp.body.n == 12345678901234567890", {
      req: { method: "GET", url: `${server.base}/bignum` },
    });
    assert.equal(v, true);
  });

  it("keeps non-JSON bodies raw, lower-cases header names and lists every value", async () => {
    const r = (await send({ method: "GET", url: `${server.base}/text` })) as Record<
      string,
      unknown
    >;
    assert.equal(r.body, null);
    assert.equal(r.raw_body, "hello");
    const headers = r.headers as Record<string, string[]>;
    assert.deepEqual(headers["set-cookie"], ["a=1", "b=2"]);
    assert.deepEqual(headers["x-custom"], ["yes"]);
  });

  it("decodes YAML by content type, and JSON/YAML when forced; an undecodable body is null", async () => {
    const y = (await send({ method: "GET", url: `${server.base}/yaml` })) as Record<
      string,
      unknown
    >;
    assert.deepEqual(y.body, { a: 1, b: ["x", "z"] });
    const forced = (await send({
      method: "GET",
      url: `${server.base}/text`,
      force_json_decode: true,
    })) as Record<string, unknown>;
    assert.equal(forced.body, null);
    const bad = (await send({ method: "GET", url: `${server.base}/badjson` })) as Record<
      string,
      unknown
    >;
    assert.equal(bad.body, null);
    assert.equal(bad.raw_body, "{not json");
    const yamlForced = (await send({
      method: "GET",
      url: `${server.base}/yaml`,
      force_json_decode: false,
      force_yaml_decode: true,
    })) as Record<string, unknown>;
    assert.deepEqual(yamlForced.body, { a: 1, b: ["x", "z"] });
  });

  it("returns error statuses as responses (no error raised)", async () => {
    for (const code of [400, 404, 500, 503]) {
      const r = (await send({
        method: "GET",
        url: `${server.base}/status?code=${code}`,
      })) as Record<string, unknown>;
      assert.equal(r.status_code, code);
      assert.equal(r.raw_body, `status ${code}`);
    }
  });

  it("sends canonical header names, raw_body over body, and a User-Agent", async () => {
    const r = (await send({
      method: "put",
      url: `${server.base}/echo-headers`,
      headers: { "x-api-key": "secret", "content-type": "text/plain" },
      body: { ignored: true },
      raw_body: "raw text",
    })) as { body: Record<string, string> };
    assert.equal(r.body["x-api-key"], "secret");
    assert.equal(r.body["content-type"], "text/plain");
    assert.ok(r.body["user-agent"]);
    const last = server.requests.at(-1);
    assert.equal(last?.method, "PUT");
    assert.equal(last?.body, "raw text");
  });

  it("follows redirects only with enable_redirect", async () => {
    const stay = (await send({ method: "GET", url: `${server.base}/redirect` })) as Record<
      string,
      unknown
    >;
    assert.equal(stay.status_code, 302);
    assert.deepEqual((stay.headers as Record<string, string[]>).location, ["/json"]);
    const follow = (await send({
      method: "GET",
      url: `${server.base}/redirect`,
      enable_redirect: true,
    })) as Record<string, unknown>;
    assert.equal(follow.status_code, 200);
    assert.equal((follow.body as Record<string, unknown>).method, "GET");
    const loop = await send({
      method: "GET",
      url: `${server.base}/loop`,
      enable_redirect: true,
      raise_error: false,
    });
    assert.deepEqual(loop, {
      status_code: 0,
      error: {
        code: "eval_http_send_network_error",
        message: `Get ${JSON.stringify(`${server.base}/loop`)}: stopped after 10 redirects`,
      },
    });
  });

  it("times out a server that never answers (timeout as a duration or nanoseconds)", async () => {
    const url = `${server.base}/never`;
    for (const timeout of ["50ms", 50_000_000, "50000000"]) {
      const r = await send({ method: "GET", url, timeout, raise_error: false });
      assert.deepEqual(r, {
        status_code: 0,
        error: {
          code: "eval_http_send_network_error",
          message: `Get ${JSON.stringify(url)}: context deadline exceeded (Client.Timeout exceeded while awaiting headers)`,
        },
      });
    }
    await assert.rejects(
      engineWith(SEND).queryAsync("data.p.resp", {
        input: fromJSON({ req: { method: "GET", url, timeout: "50ms" } }),
        strictBuiltinErrors: true,
      }),
      (e: unknown) =>
        e instanceof RegoError &&
        e.code === "eval_builtin_error" &&
        e.message === `http.send: Get ${url}: request timed out`,
    );
  });

  it("reports a closed connection and a refused one as network errors", async () => {
    const closed = await send({ method: "GET", url: `${server.base}/close`, raise_error: false });
    assert.deepEqual(closed, {
      status_code: 0,
      error: { code: "eval_http_send_network_error", message: `Get "${server.base}/close": EOF` },
    });
    const port = await closedPort();
    const refused = await send({
      method: "GET",
      url: `http://127.0.0.1:${port}/`,
      raise_error: false,
    });
    assert.deepEqual(refused, {
      status_code: 0,
      error: {
        code: "eval_http_send_network_error",
        message: `Get "http://127.0.0.1:${port}/": dial tcp 127.0.0.1:${port}: connect: connection refused`,
      },
    });
  });

  it("raises network errors by default: undefined, or eval_builtin_error when strict", async () => {
    const port = await closedPort();
    const req = { method: "GET", url: `http://127.0.0.1:${port}/x` };
    assert.equal(await send(req), undefined);
    await assert.rejects(
      engineWith(SEND).queryAsync("data.p.resp", {
        input: fromJSON({ req }),
        strictBuiltinErrors: true,
      }),
      {
        name: "RegoError",
        code: "eval_builtin_error",
        message: `http.send: Get "http://127.0.0.1:${port}/x": dial tcp 127.0.0.1:${port}: connect: connection refused`,
      },
    );
  });

  it("retries network errors max_retry_attempts times", async () => {
    flaky = 0;
    const fail = (await send({
      method: "GET",
      url: `${server.base}/flaky`,
      raise_error: false,
    })) as Record<string, unknown>;
    assert.equal(fail.status_code, 0);
    flaky = 0;
    const before = server.requests.length;
    const ok = (await send({
      method: "GET",
      url: `${server.base}/flaky`,
      max_retry_attempts: 2,
    })) as Record<string, unknown>;
    assert.equal(ok.raw_body, "third time");
    // Requests the server read fully: the two closed ones and the answered one.
    assert.equal(server.requests.length - before, 3);
  });

  it("sends one request for equal calls within a query", async () => {
    const e = engineWith(`package p
a := http.send({"method": "GET", "url": concat("", [input.base, "/text"])})
b := http.send({"url": concat("", [input.base, "/text"]), "method": "GET"})
same := a == b
`);
    const before = server.requests.length;
    assert.equal(await evalAsync(e, "data.p.same", { base: server.base }), true);
    assert.equal(server.requests.length - before, 1);
  });

  it("pins the clock and prints once across evaluation rounds", async () => {
    const e = engineWith(`package p
t := time.now_ns()
n := rand.intn("pinned", 1000000000)
r := x if {
	print("before", t, n)
	x := http.send({"method": "GET", "url": concat("", [input.base, "/text"])}).raw_body
	y := http.send({"method": "GET", "url": concat("", [input.base, "/yaml"])}).raw_body
	print("after", x)
}
out := [t, r, n]
`);
    const printed: string[] = [];
    const out = (await evalAsync(
      e,
      "data.p.out",
      { base: server.base },
      {
        print: (m) => printed.push(m),
      },
    )) as [number, string, number];
    assert.equal(out[1], "hello");
    assert.deepEqual(printed, [`before ${out[0]} ${out[2]}`, "after hello"]);
  });

  it("refuses a query needing more network calls than the round bound", async () => {
    const e = engineWith(`package p
codes := [c | some i in numbers.range(1, ${MAX_NETWORK_ROUNDS + 1}); c := http.send({"method": "GET", "url": sprintf("%s/status?code=200&i=%d", [input.base, i])}).status_code]
`);
    await assert.rejects(evalAsync(e, "data.p.codes", { base: server.base }), {
      name: "RegoError",
      code: "eval_builtin_error",
      message: `too many network calls in one query (more than ${MAX_NETWORK_ROUNDS})`,
    });
  });

  it("ends the query with eval_cancel_error when its own time runs out during a request", async () => {
    await assert.rejects(
      send({ method: "GET", url: `${server.base}/never`, timeout: "60s" }, { timeoutMs: 50 }),
      { name: "RegoError", code: "eval_cancel_error" },
    );
    const controller = new AbortController();
    const pending = send(
      { method: "GET", url: `${server.base}/never`, timeout: "60s" },
      { signal: controller.signal },
    );
    setImmediate(() => controller.abort());
    await assert.rejects(pending, { name: "RegoError", code: "eval_cancel_error" });
  });

  it("works through evalRefAsync", async () => {
    const v = await engineWith(SEND).evalRefAsync(["p", "resp", "raw_body"], {
      input: fromJSON({ req: { method: "GET", url: `${server.base}/text` } }),
    });
    assert.equal(v, "hello");
  });
});

describe("http.send request checks", () => {
  const strict = (req: unknown) =>
    engineWith(SEND).queryAsync("data.p.resp", {
      input: fromJSON({ req }),
      strictBuiltinErrors: true,
    });
  const lenient = (req: unknown) => evalAsync(engineWith(SEND), "data.p.resp", { req });

  it("refuses unknown and missing keys (eval_type_error when strict)", async () => {
    await assert.rejects(strict({ method: "GET", url: "http://x", foo: 1 }), {
      code: "eval_type_error",
      message: 'http.send: invalid request parameters(s): {"foo"}',
    });
    await assert.rejects(strict({ method: "GET" }), {
      code: "eval_type_error",
      message: 'http.send: missing required request parameters(s): {"url"}',
    });
    await assert.rejects(strict("not an object"), { code: "eval_type_error" });
  });

  it("answers bad parameters with eval_http_send_internal_error when raise_error is false", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ foo: 1 }, 'http.send: invalid request parameters(s): {"foo"}'],
      [{ url: 7 }, 'http.send: "url" must be a string'],
      [
        { timeout: "soon" },
        'http.send: invalid timeout value "soon": time: invalid duration "soon"',
      ],
      [
        { timeout: true },
        "http.send: operand 1 'timeout' must be one of {string, number} but got boolean",
      ],
      [{ max_retry_attempts: -1 }, 'http.send: invalid value -1 for field "max_retry_attempts"'],
      [{ cache: "yes" }, 'http.send: invalid value for "cache" field'],
      [
        { caching_mode: "other" },
        'http.send: invalid value specified for "caching_mode" field: other',
      ],
      [{ headers: { a: 1 } }, 'http.send: invalid type for headers value "1"'],
      [
        { force_cache: true },
        "http.send: 'force_cache' set but 'force_cache_duration_seconds' parameter is missing",
      ],
      [{ url: "::bad" }, 'http.send: parse "::bad": invalid URL'],
      [
        { tls_ca_cert_file: "/no/such/file.pem" },
        "http.send: open /no/such/file.pem: no such file or directory",
      ],
    ];
    for (const [extra, message] of cases) {
      const r = await lenient({
        method: "GET",
        url: "http://127.0.0.1:1/",
        raise_error: false,
        ...extra,
      });
      assert.deepEqual(
        r,
        { status_code: 0, error: { code: "eval_http_send_internal_error", message } },
        message,
      );
    }
  });

  it("raises bad parameters as eval_builtin_error by default", async () => {
    await assert.rejects(strict({ method: "GET", url: "http://x", timeout: "soon" }), {
      code: "eval_builtin_error",
      message: 'http.send: invalid timeout value "soon": time: invalid duration "soon"',
    });
    await assert.rejects(strict({ method: "GET", url: "http://x", raise_error: "no" }), {
      code: "eval_builtin_error",
      message: "http.send: invalid value for raise_error field",
    });
  });

  it("reports an unsupported scheme as a network error", async () => {
    const r = await lenient({ method: "GET", url: "ftp://127.0.0.1/x", raise_error: false });
    assert.deepEqual(r, {
      status_code: 0,
      error: {
        code: "eval_http_send_network_error",
        message: 'Get "ftp://127.0.0.1/x": unsupported protocol scheme "ftp"',
      },
    });
  });
});

describe("synchronous evaluation", () => {
  it("fails http.send with a message naming the asynchronous API", () => {
    const e = engineWith(SEND);
    assert.throws(
      () =>
        e.query("data.p.resp", {
          input: fromJSON({ req: { method: "GET", url: "http://127.0.0.1:1/" } }),
          strictBuiltinErrors: true,
        }),
      (err: unknown) =>
        err instanceof RegoError &&
        err.code === "eval_builtin_error" &&
        err.message.startsWith("http.send: the request needs the network") &&
        err.message.includes("queryAsync"),
    );
    // Without strict errors the expression is undefined, as for any builtin error.
    const r = e.query("data.p.resp", {
      input: fromJSON({ req: { method: "GET", url: "http://127.0.0.1:1/" } }),
    });
    assert.equal(r.length, 0);
  });

  it("runs policies whose tests replace http.send with `with`", () => {
    const e = engineWith(`package p
allowed if http.send({"method": "GET", "url": "https://users.example/alice"}).body.active
mock(_) := {"status_code": 200, "body": {"active": true}}
`);
    const r = e.query("data.p.allowed with http.send as data.p.mock");
    assert.equal(r[0]?.expressions[0]?.value, true);
  });

  it("still checks the request's parameters", () => {
    assert.throws(
      () =>
        engineWith(SEND).query("data.p.resp", {
          input: fromJSON({ req: { method: "GET" } }),
          strictBuiltinErrors: true,
        }),
      {
        code: "eval_type_error",
        message: 'http.send: missing required request parameters(s): {"url"}',
      },
    );
  });

  it("gives the same answers as the asynchronous forms for policies without network builtins", async () => {
    const e = engineWith(`package p
allow if input.user == "alice"
names := {n | some n in input.names}
now := time.now_ns()
`);
    const input = fromJSON({ user: "alice", names: ["a", "b", "a"] });
    const nowNs = 1_700_000_000_000_000_000n;
    const sync = e.query("data.p", { input, nowNs });
    const async = await e.queryAsync("data.p", { input, nowNs });
    assert.deepEqual(
      sync.map((r) => toJSON(r.expressions[0]?.value ?? null)),
      async.map((r) => toJSON(r.expressions[0]?.value ?? null)),
    );
    assert.deepEqual(toJSON(e.evalRef(["p", "names"], { input }) ?? null), ["a", "b"]);
    assert.deepEqual(toJSON((await e.evalRefAsync(["p", "names"], { input })) ?? null), ["a", "b"]);
  });
});

describe("http.send to a Unix socket", () => {
  it("sends unix://…?socket=<path> requests to the socket, without the socket parameter", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rego-sock-"));
    const path = join(dir, "s.sock");
    const server = http.createServer((req, res) => res.end(`via socket ${req.url}`));
    await new Promise<void>((resolve) => server.listen(path, resolve));
    try {
      const r = (await evalAsync(engineWith(SEND), "data.p.resp", {
        req: { method: "GET", url: `unix://localhost/a/b?x=1&socket=${encodeURIComponent(path)}` },
      })) as Record<string, unknown>;
      assert.equal(r.raw_body, "via socket /a/b?x=1");
    } finally {
      await new Promise((resolve) => server.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
