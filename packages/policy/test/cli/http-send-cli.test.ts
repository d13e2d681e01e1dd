/** `rego eval` and `rego test` evaluate asynchronously: policies may call http.send. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { startServer, type TestServer } from "../engine/network-helpers.js";
import { tempTree } from "../fixtures.js";
import { rego } from "./cli-harness.js";

describe("rego eval / rego test with http.send", () => {
  let server: TestServer;
  let files: { dir: string; remove(): void };
  before(async () => {
    server = await startServer((_req, res) => {
      res.setHeader("Content-Type", "application/json");
      res.end('{"allowed": ["alice"]}');
    });
    files = tempTree({
      "p.rego": `package p
allowed := http.send({"method": "GET", "url": "${server.base}/users"}).body.allowed
allow if input.user in allowed
`,
      "p_test.rego": `package p
test_alice if allow with input as {"user": "alice"}
test_bob_denied if not allow with input as {"user": "bob"}
`,
      "in.json": '{"user": "alice"}',
    });
  });
  after(async () => {
    files.remove();
    await server.close();
  });

  /** `rego eval <flags> -d p.rego -i in.json data.p.allow`. */
  const evalAllow = (...flags: string[]) =>
    rego([
      "eval",
      ...flags,
      "-d",
      join(files.dir, "p.rego"),
      "-i",
      join(files.dir, "in.json"),
      "data.p.allow",
    ]);

  it("rego eval answers a query whose policy calls http.send", async () => {
    const run = await evalAllow();
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout) as { result: { expressions: { value: unknown }[] }[] };
    assert.equal(out.result[0]?.expressions[0]?.value, true);
  });

  it("rego eval --explain traces the final round only", async () => {
    const run = await evalAllow("--explain", "full", "--format", "pretty");
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout.match(/Enter data\.p\.allowed$/gm)?.length, 1, run.stdout);
  });

  it("rego test runs tests that call http.send", async () => {
    const run = await rego([
      "test",
      "-v",
      join(files.dir, "p.rego"),
      join(files.dir, "p_test.rego"),
    ]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /PASS: 2\/2/);
  });
});
