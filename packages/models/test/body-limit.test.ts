import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { request } from "node:http";
import { after, before, describe, it } from "node:test";
import { postJson, startTestServer, type TestServer } from "./harness.js";

const LIMIT = 64 * 1024;

interface RawAnswer {
  status: number;
  connection: string | undefined;
  body: unknown;
}

/**
 * Sends `size` bytes with node's HTTP client, declared by Content-Length or chunked, and
 * keeps writing while the server answers; resolves with the answer the client read.
 */
function sendBody(url: string, size: number, chunked: boolean): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const headers: Record<string, string | number> = { "Content-Type": "application/json" };
    if (chunked) headers["Transfer-Encoding"] = "chunked";
    else headers["Content-Length"] = size;
    const req = request(
      { host: target.hostname, port: target.port, path: target.pathname, method: "POST", headers },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d: string) => {
          text += d;
        });
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            connection: res.headers.connection,
            body: JSON.parse(text),
          }),
        );
      },
    );
    // Writing may fail once the server has answered and closed: the answer is what counts.
    req.on("error", (e) => setTimeout(() => reject(e), 2_000));
    const piece = Buffer.alloc(16 * 1024, 0x20);
    for (let sent = 0; sent < size; sent += piece.length)
      req.write(piece.subarray(0, Math.min(piece.length, size - sent)));
    req.end();
  });
}

describe("request body limit", () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ LLMSRV_MAX_BODY_BYTES: String(LIMIT) }, { ensureDemo: false });
  });
  after(() => server.stop());

  for (const chunked of [false, true]) {
    it(`answers 413 naming the limit and closes the connection (${chunked ? "chunked" : "Content-Length"})`, async () => {
      const r = await sendBody(`${server.url}/api/chat`, 16 * LIMIT, chunked);
      assert.equal(r.status, 413);
      assert.equal(r.connection, "close");
      const error = (r.body as { error: string }).error;
      assert.match(error, /^request body too large: .*limit of 65536 bytes/);
      if (!chunked) assert.match(error, /1048576 bytes/);
      const version = await fetch(`${server.url}/api/version`);
      assert.equal(version.status, 200, "the server still answers");
    });
  }

  it("answers 413 on every JSON route, in OpenAI's shape on /v1", async () => {
    for (const path of ["/api/generate", "/api/create", "/api/embed", "/api/show"]) {
      const r = await sendBody(`${server.url}${path}`, 2 * LIMIT, true);
      assert.equal(r.status, 413, path);
    }
    const openai = await sendBody(`${server.url}/v1/chat/completions`, 2 * LIMIT, false);
    assert.equal(openai.status, 413);
    assert.match((openai.body as { error: { message: string } }).error.message, /too large/);
  });

  it("reads a body within the limit", async () => {
    const r = await postJson(`${server.url}/api/show`, {
      model: "absent",
      pad: "x".repeat(LIMIT - 100),
    });
    assert.equal(r.status, 404, r.text);
  });

  it("streams blob uploads to disk without the JSON limit", async () => {
    const blob = Buffer.alloc(8 * LIMIT, 7);
    const digest = `sha256:${createHash("sha256").update(blob).digest("hex")}`;
    const up = await fetch(`${server.url}/api/blobs/${digest}`, { method: "POST", body: blob });
    assert.equal(up.status, 201);
  });
});
