/**
 * `rego eval`, `rego test`, `rego exec` and the REPL evaluate asynchronously: policies may
 * call http.send.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Readable } from "node:stream";
import { after, before, describe, it } from "node:test";
import { runRepl } from "../../src/cli/repl/run-repl.js";
import { startServer, type TestServer } from "../engine/network-helpers.js";
import { tempTree } from "../fixtures.js";
import { rego } from "./cli-harness.js";

describe("rego eval / test / exec / the REPL with http.send", () => {
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

  it("rego exec decides each input file through http.send", async () => {
    const run = await rego([
      "exec",
      "--decision",
      "p/allow",
      "-b",
      files.dir,
      join(files.dir, "in.json"),
    ]);
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout) as { result: { result?: unknown; error?: unknown }[] };
    assert.deepEqual(
      out.result.map((r) => r.result ?? r.error),
      [true],
    );
  });

  it("the REPL answers queries whose policy calls http.send", async () => {
    let stdout = "";
    let stderr = "";
    const code = await runRepl(
      [join(files.dir, "p.rego")],
      { v0: false, watch: false },
      {
        stdout: {
          write: (t: string) => {
            stdout += t;
          },
        },
        stderr: {
          write: (t: string) => {
            stderr += t;
          },
        },
        env: {},
        signal: new AbortController().signal,
        readStdin: async () => "",
      },
      Readable.from(['input := {"user": "alice"}\n', "data.p.allow\n", "data.p.allowed\n"]),
    );
    assert.equal(code, 0, stderr);
    assert.equal(stderr, "");
    assert.match(stdout, /> true\n/);
    assert.match(stdout, /"alice"/);
  });
});
