import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { cli } from "./cli-run.js";
import { startTestServer, type TestServer } from "./harness.js";

describe("llmsrv CLI against a running server", { timeout: 180_000 }, () => {
  let server: TestServer;
  let env: Record<string, string>;

  before(async () => {
    server = await startTestServer();
    env = { LLMSRV_HOST: `127.0.0.1:${server.port}` };
  });
  after(() => server.stop());

  it("list prints NAME ID SIZE MODIFIED with the demo model", async () => {
    const r = await cli(["list"], env);
    assert.equal(r.code, 0, r.stderr);
    const [header, ...rows] = r.stdout.split("\n");
    assert.match(header ?? "", /^NAME\s{4,}ID\s{4,}SIZE\s{4,}MODIFIED$/);
    // demo-vision and demo-audio are listed too (newest first)
    const row = rows.find((l) => l.startsWith("demo:"));
    assert.match(row ?? "", /^demo:latest\s+[0-9a-f]{12}\s+54 MB\s+Less than a minute ago$/);
  });

  it("show prints the model section and capabilities; --license prints only the license", async () => {
    const r = await cli(["show", "demo"], env);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /architecture\s+llama/);
    assert.match(r.stdout, /embedding length\s+2048/);
    assert.match(r.stdout, /Capabilities\n\s+completion\n\s+tools/);
    assert.match(r.stdout, /requires\s+\d+\.\d+\.\d+/);
    assert.match(
      r.stdout,
      /Default parameters\n\s+temperature\s+0\.8\n\s+top_k\s+40\n\s+top_p\s+0\.9/,
    );
    const lic = await cli(["show", "demo", "--license"], env);
    assert.match(lic.stdout, /noise/);
  });

  it("run streams an answer for a prompt, then ps shows the model, stop unloads it", async () => {
    const r = await cli(["run", "demo", "say", "something", "--keepalive", "10m"], env);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stdout.trim().length > 0);
    const ps = await cli(["ps"], env);
    assert.match(ps.stdout, /^NAME\s+ID\s+SIZE\s+PROCESSOR\s+CONTEXT\s+ACTIVE\s+QUEUED\s+UNTIL\n/);
    assert.match(ps.stdout, /demo:latest.*100% CPU\s+512\s+0\s+0\s+10 minutes from now/);
    assert.equal((await cli(["stop", "demo"], env)).code, 0);
    assert.doesNotMatch((await cli(["ps"], env)).stdout, /demo/);
    const again = await cli(["stop", "demo"], env);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /couldn't find model "demo" to stop/);
  });

  it("run reads a conversation from a terminal when no prompt is given, until /bye", async () => {
    const r = await cli(["run", "demo"], env, "hello\n/bye\nnot read\n", { stdinTty: true });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.split("\n").filter((l) => l !== "").length, 1, "one answer");
  });

  it("cp copies and rm deletes, printing Ollama's messages", async () => {
    const cp = await cli(["cp", "demo", "demo2"], env);
    assert.deepEqual([cp.code, cp.stdout], [0, "copied 'demo' to 'demo2'\n"]);
    const rm = await cli(["rm", "demo2"], env);
    assert.deepEqual([rm.code, rm.stdout], [0, "deleted 'demo2'\n"]);
    const gone = await cli(["rm", "demo2"], env);
    assert.equal(gone.code, 1);
    assert.match(gone.stderr, /model 'demo2' not found/);
  });

  it("exits 2 with usage for missing arguments and unknown commands", async () => {
    for (const args of [
      ["cp", "only-one"],
      ["rm"],
      ["show"],
      ["run"],
      ["stop"],
      ["bogus"],
      [],
      ["list", "--nope"],
    ]) {
      const r = await cli(args, env);
      assert.equal(r.code, 2, `llmsrv ${args.join(" ")}`);
      assert.match(r.stderr, /Usage/);
    }
  });

  it("reports an unreachable server as a failure (exit 1)", async () => {
    const r = await cli(["list"], { LLMSRV_HOST: "127.0.0.1:1" });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /could not connect to llmsrv at http:\/\/127\.0\.0\.1:1/);
  });
});

describe("llmsrv serve start-up checks", () => {
  it("--help lists every LLMSRV_ variable with its default", async () => {
    const r = await cli(["serve", "--help"], {});
    assert.equal(r.code, 0);
    for (const name of [
      "LLMSRV_HOST",
      "LLMSRV_KEEP_ALIVE",
      "LLMSRV_MAX_QUEUE",
      "LLMSRV_NUM_PARALLEL",
      "LLMSRV_KV_CACHE_TYPE",
    ]) {
      assert.match(r.stdout, new RegExp(name));
    }
  });

  it("refuses to start with invalid variables, naming each of them, exit 1", async () => {
    const r = await cli(["serve"], {
      LLMSRV_KEEP_ALIVE: "soon",
      LLMSRV_MAX_QUEUE: "-3",
      LLMSRV_KV_CACHE_TYPE: "q2",
    });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /LLMSRV_KEEP_ALIVE/);
    assert.match(r.stderr, /LLMSRV_MAX_QUEUE/);
    assert.match(r.stderr, /LLMSRV_KV_CACHE_TYPE/);
  });
});
