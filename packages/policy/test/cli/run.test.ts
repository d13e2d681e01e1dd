/** `rego run --server`: serving, decision logs, graceful stop and all-or-nothing start-up. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { EXAMPLES_DIR, tempTree } from "../fixtures.js";
import { startRun } from "./cli-harness.js";

const files = tempTree({
  "policies/bad1.rego": "package bad1\n\np := := 1\n",
  "policies/bad2.rego": "package bad2\n\nq if {\n",
  "policies/good.rego": "package good\n\nr := 1\n",
  "data/data.json": '{"a": 1}',
  "data/nested/data.json": '{"b": 2}',
  "baddata/data.json": '{"a": ',
  "baddata/p.rego": "package p\n\np := := 1\n",
});
after(() => files.remove());

describe("rego run --server", () => {
  it("serves the examples and stops cleanly when signalled", async () => {
    const run = startRun(["--server", "--addr", "127.0.0.1:0", EXAMPLES_DIR]);
    const url = await Promise.race([
      run.url,
      run.done.then((c) => assert.fail(`exited ${c}: ${run.out.stderr}`)),
    ]);
    const health = await fetch(`${url}/health`);
    assert.equal(health.status, 200);
    const res = await fetch(`${url}/v1/data/limits`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ input: { name: "alice" } }),
    });
    assert.deepEqual(await res.json(), { result: { allow: true, role: "admin", limit: 10000.5 } });
    run.stop();
    assert.equal(await run.done, 0);
    assert.match(run.out.stderr, /"msg":"Initializing server."/);
    assert.match(run.out.stderr, /"msg":"Server shutdown."/);
    await assert.rejects(fetch(`${url}/health`));
  });

  it("accepts the spec's form <data_dir> <policies_dir> and merges nested data files", async () => {
    const run = startRun([
      "--server",
      "--addr",
      "127.0.0.1:0",
      join(files.dir, "data"),
      join(EXAMPLES_DIR, "policies"),
    ]);
    const url = await run.url;
    const res = await fetch(`${url}/v1/data`, { method: "POST", body: "{}" });
    const body = (await res.json()) as { result: Record<string, unknown> };
    assert.equal(body.result.a, 1);
    assert.deepEqual(body.result.nested, { b: 2 });
    assert.deepEqual(body.result.simple, { allow: false, env: "dev" });
    run.stop();
    assert.equal(await run.done, 0);
  });

  it("logs decisions on stdout with --set decision_logs.console=true", async () => {
    const run = startRun([
      "--server",
      "-a",
      "127.0.0.1:0",
      "--set",
      "decision_logs.console=true",
      EXAMPLES_DIR,
    ]);
    const url = await run.url;
    const res = await fetch(`${url}/v1/data/simple`, {
      method: "POST",
      body: '{"input":{"name":"alice"}}',
    });
    const body = (await res.json()) as { decision_id: string };
    run.stop();
    await run.done;
    const line = JSON.parse(run.out.stdout.trim()) as { decision_id: string };
    assert.equal(line.decision_id, body.decision_id);
  });

  it("logs decisions masked by data.system.log.mask with REGO_DECISION_LOGS=console", async () => {
    const tree = tempTree({
      "p.rego": 'package p\n\nallow := input.user == "alice"\n',
      "mask.rego": 'package system.log\n\nmask contains "/input/secret"\n',
    });
    const run = startRun(["--server", "-a", "127.0.0.1:0", tree.dir], {
      REGO_DECISION_LOGS: "console",
    });
    try {
      const url = await run.url;
      const res = await fetch(`${url}/v1/data/p/allow`, {
        method: "POST",
        body: '{"input":{"user":"alice","secret":"s3"}}',
      });
      const body = (await res.json()) as { decision_id: string; result: boolean };
      assert.equal(body.result, true);
      run.stop();
      assert.equal(await run.done, 0);
      const line = JSON.parse(run.out.stdout.trim()) as Record<string, unknown>;
      assert.equal(line.decision_id, body.decision_id);
      assert.deepEqual(line.input, { user: "alice" });
      assert.deepEqual(line.erased, ["/input/secret"]);
      assert.equal(line.msg, "Decision Log");
    } finally {
      run.stop();
      tree.remove();
    }
  });

  it("answers POST / from the path --set default_decision names", async () => {
    const run = startRun([
      "--server",
      "-a",
      "127.0.0.1:0",
      "--set",
      "default_decision=/simple/allow",
      EXAMPLES_DIR,
    ]);
    const url = await run.url;
    const res = await fetch(`${url}/`, { method: "POST", body: '{"name":"alice"}' });
    const text = await res.text();
    run.stop();
    assert.equal(await run.done, 0);
    assert.equal(res.status, 200);
    assert.equal(text, "true\n");
    const bad = startRun(["--server", "--set", "default_decision=a//b", EXAMPLES_DIR]);
    assert.equal(await bad.done, 1);
    assert.match(bad.out.stderr, /^error: default_decision: not a path like \/a\/b: a\/\/b\n/);
  });

  it("takes --set server.workers=<n> and refuses a value that is not a whole number", async () => {
    const run = startRun([
      "--server",
      "--addr",
      "127.0.0.1:0",
      "--set",
      "server.workers=1",
      EXAMPLES_DIR,
    ]);
    const url = await run.url;
    const res = await fetch(`${url}/v1/data/simple/allow`, {
      method: "POST",
      body: '{"input": {"name": "alice"}}',
    });
    const text = await res.text();
    run.stop();
    assert.equal(await run.done, 0);
    assert.equal(text, '{"result":true}\n');
    const bad = startRun(["--server", "--set", "server.workers=many", EXAMPLES_DIR]);
    assert.equal(await bad.done, 1);
    assert.match(bad.out.stderr, /server\.workers: must be a whole number from 0 to 9999/);
  });

  it("refuses to start with every parse error listed as file:line:col, exit 1", async () => {
    const run = startRun(["--server", "--addr", "127.0.0.1:0", join(files.dir, "policies")]);
    assert.equal(await run.done, 1);
    assert.match(run.out.stderr, /^2 errors occurred:\n/);
    assert.match(run.out.stderr, /bad1\.rego:3:\d+: rego_parse_error: /);
    assert.match(run.out.stderr, /bad2\.rego:\d+:\d+: rego_parse_error: /);
    assert.doesNotMatch(run.out.stderr, /Initializing server/);
  });

  it("refuses to start with a bad data file and lists the policy errors too", async () => {
    const run = startRun(["--server", "--addr", "127.0.0.1:0", join(files.dir, "baddata")]);
    assert.equal(await run.done, 1);
    assert.match(run.out.stderr, /^2 errors occurred during loading: /);
    assert.match(run.out.stderr, /baddata\/data\.json: /);
    assert.match(run.out.stderr, /p\.rego:3:\d+: rego_parse_error: /);
    assert.doesNotMatch(run.out.stderr, /Initializing server/);
  });

  it("refuses a missing path and bad flags", async () => {
    const missing = startRun(["--server", "--addr", "127.0.0.1:0", join(files.dir, "nope")]);
    assert.equal(await missing.done, 1);
    assert.match(missing.out.stderr, /no such file or directory/);
    const badAddr = startRun(["--server", "--addr", "localhost", EXAMPLES_DIR]);
    assert.equal(await badAddr.done, 2);
    const badSet = startRun(["--server", "--set", "plugins.x=1", EXAMPLES_DIR]);
    assert.equal(await badSet.done, 1);
    assert.match(badSet.out.stderr, /plugins\.x: plugin "x" is not registered/);
    const noValue = startRun(["--server", "--set", "decision_logs.console", EXAMPLES_DIR]);
    assert.equal(await noValue.done, 2);
    assert.match(noValue.out.stderr, /--set decision_logs\.console: expected key=value/);
  });

  it("reports bad REGO_* variables together", async () => {
    const run = startRun(["--server", EXAMPLES_DIR], {
      REGO_MAX_BODY_BYTES: "lots",
      REGO_LOG_LEVEL: "loud",
    });
    assert.equal(await run.done, 1);
    assert.match(run.out.stderr, /REGO_MAX_BODY_BYTES/);
    assert.match(run.out.stderr, /REGO_LOG_LEVEL/);
  });
});
