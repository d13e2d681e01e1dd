import assert from "node:assert/strict";
import { request } from "node:http";
import { after, before, describe, it } from "node:test";
import { loadConfig } from "../src/config.js";
import { ConfigError } from "../src/errors.js";
import { originAllowed } from "../src/origin-patterns.js";
import { startTestServer, type TestServer } from "./harness.js";

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw HTTP request, so the test controls the Host and Origin headers. */
function call(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method, path, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }),
      );
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("origin and host guard (OLLAMA_ORIGINS, DNS rebinding)", { timeout: 60_000 }, () => {
  let server: TestServer;
  let wide: TestServer;

  before(async () => {
    server = await startTestServer(
      { LLMSRV_ORIGINS: "https://*.example.com, http://tool.test:8080" },
      { ensureDemo: false },
    );
    wide = await startTestServer({ LLMSRV_HOST: "0.0.0.0:0" }, { ensureDemo: false });
  });
  after(async () => {
    await server.stop();
    await wide.stop();
  });

  it("answers requests without an Origin header (curl, SDKs) as before", async () => {
    const r = await call(server.port, "GET", "/api/tags", {});
    assert.equal(r.status, 200);
    assert.equal(r.headers["access-control-allow-origin"], undefined);
  });

  it("allows localhost origins on any port and echoes them in CORS headers", async () => {
    for (const origin of [
      "http://localhost:3000",
      "http://127.0.0.1:5173",
      "https://localhost",
      "http://0.0.0.0:8000",
      "app://obsidian.md",
      "tauri://localhost",
    ]) {
      const r = await call(server.port, "GET", "/api/tags", { Origin: origin });
      assert.equal(r.status, 200, origin);
      assert.equal(r.headers["access-control-allow-origin"], origin);
      assert.equal(r.headers.vary, "Origin");
    }
  });

  it("refuses other origins with 403 and runs nothing", async () => {
    for (const origin of ["http://evil.example", "https://localhost.evil.example", "null"]) {
      const r = await call(server.port, "GET", "/api/tags", { Origin: origin });
      assert.equal(r.status, 403, origin);
      assert.equal(r.headers["access-control-allow-origin"], undefined);
    }
    const copy = await call(
      server.port,
      "POST",
      "/api/copy",
      { Origin: "http://evil.example" },
      JSON.stringify({ source: "nothing", destination: "x" }),
    );
    assert.equal(copy.status, 403, "refused before the route answers 404");
  });

  it("allows LLMSRV_ORIGINS entries, with one * wildcard", async () => {
    const ok = await call(server.port, "GET", "/api/version", {
      Origin: "https://notes.example.com",
    });
    assert.equal(ok.status, 200);
    assert.equal(ok.headers["access-control-allow-origin"], "https://notes.example.com");
    const exact = await call(server.port, "GET", "/api/version", {
      Origin: "http://tool.test:8080",
    });
    assert.equal(exact.status, 200);
    for (const origin of ["http://notes.example.com", "http://tool.test:8081"]) {
      const r = await call(server.port, "GET", "/api/version", { Origin: origin });
      assert.equal(r.status, 403, origin);
    }
  });

  it("answers a preflight OPTIONS with the CORS headers (204), or 403 for other origins", async () => {
    const pre = await call(server.port, "OPTIONS", "/api/chat", {
      Origin: "http://localhost:3000",
      "Access-Control-Request-Method": "POST",
      "Access-Control-Request-Headers": "content-type,authorization",
    });
    assert.equal(pre.status, 204);
    assert.equal(pre.headers["access-control-allow-origin"], "http://localhost:3000");
    assert.match(String(pre.headers["access-control-allow-methods"]), /\bPOST\b/);
    const allowHeaders = String(pre.headers["access-control-allow-headers"]).toLowerCase();
    assert.match(allowHeaders, /content-type/);
    assert.match(allowHeaders, /authorization/);
    const bad = await call(server.port, "OPTIONS", "/api/chat", {
      Origin: "http://evil.example",
      "Access-Control-Request-Method": "POST",
    });
    assert.equal(bad.status, 403);
  });

  it("treats a page of the server's own origin as same-origin", async () => {
    const r = await call(server.port, "GET", "/api/version", {
      Host: `localhost:${server.port}`,
      Origin: `http://localhost:${server.port}`,
    });
    assert.equal(r.status, 200);
  });

  it("refuses a foreign Host while listening on loopback (DNS rebinding)", async () => {
    for (const host of [`evil.example:${server.port}`, "attacker.com", "10.0.0.1.evil.example"]) {
      const r = await call(server.port, "GET", "/api/tags", { Host: host });
      assert.equal(r.status, 403, host);
    }
    for (const host of [
      `localhost:${server.port}`,
      `127.0.0.1:${server.port}`,
      "[::1]:11434",
      "192.168.1.20",
      "app.localhost",
      "printer.local",
      "svc.internal",
    ]) {
      const r = await call(server.port, "GET", "/api/tags", { Host: host });
      assert.equal(r.status, 200, host);
    }
  });

  it("does not check Host when listening on all interfaces", async () => {
    const r = await call(wide.port, "GET", "/api/tags", { Host: "models.example.org" });
    assert.equal(r.status, 200);
  });
});

describe("LLMSRV_ORIGINS configuration", () => {
  it("refuses entries that are not scheme://host or have two wildcards, naming the variable", () => {
    for (const value of ["example.com", "http://*.a.*"]) {
      assert.throws(
        () => loadConfig({ LLMSRV_ORIGINS: value }),
        (e: unknown) => e instanceof ConfigError && /LLMSRV_ORIGINS/.test(e.message),
        value,
      );
    }
  });

  it("keeps the built-in localhost origins beside the listed ones", () => {
    const c = loadConfig({ LLMSRV_ORIGINS: "chrome-extension://*" });
    assert.ok(originAllowed("chrome-extension://abcdef", c.origins));
    assert.ok(originAllowed("http://localhost:1234", c.origins));
    assert.ok(!originAllowed("https://example.org", c.origins));
    assert.ok(originAllowed("https://example.org", loadConfig({ LLMSRV_ORIGINS: "*" }).origins));
  });
});
