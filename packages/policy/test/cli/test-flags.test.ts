/** `rego test`'s loading and exit flags: --ignore, -z, --fail-on-empty, --count, -b, and bad values. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { tempTree } from "../fixtures.js";
import { rego } from "./cli-harness.js";

const files = tempTree({
  "policies/ok_test.rego": "package ok\n\ntest_ok if true\n",
  "policies/x_gen.rego": "package gen\n\ntest_generated if false\n",
  "policies/vendor/v_test.rego": "package v\n\ntest_vendored if false\n",
  "skips/s_test.rego": "package s\n\ntest_ok if true\n\ntodo_test_later if false\n",
  "bundle/.manifest": '{"roots": ["b"]}',
  "bundle/b/data.json": '{"limit": 3}',
  "bundle/b/b_test.rego": "package b\n\ntest_limit if data.b.limit == 3\n",
});
after(() => files.remove());
const policies = join(files.dir, "policies");

describe("rego test flags", () => {
  it("--ignore skips matching files and directories (repeatable)", async () => {
    const all = await rego(["test", policies]);
    assert.equal(all.code, 2);
    assert.match(all.stdout, /FAIL: 2\/3\n/);
    const run = await rego(["test", "--ignore", "vendor", "--ignore=*_gen.rego", policies]);
    assert.equal(run.code, 0, run.stdout);
    assert.equal(run.stdout, "PASS: 1/1\n");
  });

  it("--ignore does not apply to a file named on the command line", async () => {
    const run = await rego(["test", "--ignore", "*_gen.rego", join(policies, "x_gen.rego")]);
    assert.equal(run.code, 2);
    assert.match(run.stdout, /data\.gen\.test_generated: FAIL/);
  });

  it("exits 2 for a skipped test, 0 with -z / --exit-zero-on-skipped", async () => {
    const dir = join(files.dir, "skips");
    assert.equal((await rego(["test", dir])).code, 2);
    assert.equal((await rego(["test", "-z", dir])).code, 0);
    assert.equal((await rego(["test", "--exit-zero-on-skipped", dir])).code, 0);
  });

  it("--fail-on-empty exits 1 when no test ran", async () => {
    const none = await rego(["test", "--fail-on-empty", "-r", "no_such_test", policies]);
    assert.equal(none.code, 1);
    assert.equal(none.stdout, "");
    assert.equal(none.stderr, "no tests were run\n");
    const plain = await rego(["test", "-r", "no_such_test", policies]);
    assert.equal(plain.code, 0);
    const some = await rego(["test", "--fail-on-empty", "-r", "test_ok", policies]);
    assert.equal(some.code, 0);
  });

  it("--count runs and reports the tests that many times", async () => {
    const run = await rego(["test", "--count", "2", "-r", "test_ok", policies]);
    assert.equal(run.code, 0);
    assert.equal(run.stdout, "PASS: 1/1\nPASS: 1/1\n");
  });

  it("-b loads the paths as bundles", async () => {
    const run = await rego(["test", "-b", "-v", join(files.dir, "bundle")]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /data\.b\.test_limit: PASS/);
  });

  it("accepts -p / --parallel and --timeout", async () => {
    const run = await rego(["test", "-p", "4", "--timeout", "30s", "-r", "test_ok", policies]);
    assert.equal(run.code, 0, run.stderr);
  });

  it("refuses bad values, naming the flag (usage errors exit 2)", async () => {
    for (const [args, message] of [
      [["--count", "0"], /--count: "0" is not a whole number of at least 1/],
      [["--count", "two"], /--count: "two"/],
      [["--parallel=-1"], /--parallel: "-1"/],
      [["--timeout", "soon"], /--timeout: /],
      [["--ignore"], /--ignore/],
    ] as const) {
      const run = await rego(["test", policies, ...args]);
      assert.equal(run.code, 2, args.join(" "));
      assert.match(run.stderr, message);
    }
  });
});
