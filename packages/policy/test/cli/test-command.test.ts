/** `rego test`: discovers test_* rules, reports like opa test, exit codes 0 / 2 / 1. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { EXAMPLES_DIR, tempTree } from "../fixtures.js";
import { rego } from "./cli-harness.js";

const files = tempTree({
  "passing/limits_test.rego": `package limits_test

test_alice_is_allowed if data.limits.allow with input as {"name": "alice"}

test_stranger_has_no_role if {
	not data.limits.role with input as {"name": "mallory"}
}

todo_test_later if false
`,
  "failing/f_test.rego": `package f_test

test_ok if true

test_wrong if {
	print("checking", 1 + 1)
	1 + 1 == 3
}

test_conflict := x if {
	some x in [1, 2]
}
`,
  "broken/b_test.rego": "package b\n\ntest_x if {\n",
});
after(() => files.remove());

describe("rego test", () => {
  it("passes the example policy tests; a skipped test exits 2 unless -z", async () => {
    const run = await rego(["test", EXAMPLES_DIR, join(files.dir, "passing")]);
    assert.equal(run.code, 2, run.stdout + run.stderr);
    const zero = await rego(["test", "-z", EXAMPLES_DIR, join(files.dir, "passing")]);
    assert.equal(zero.code, 0, zero.stdout + zero.stderr);
    // As OPA: a skipped test is listed (without a duration) even without -v.
    assert.equal(zero.stdout, run.stdout);
    assert.match(run.stdout, /\ndata\.limits_test\.todo_test_later: SKIPPED\n/);
    assert.match(run.stdout, /PASS: 2\/3\n/);
    assert.match(run.stdout, /SKIPPED: 1\/3\n/);
    assert.doesNotMatch(run.stdout, /FAIL/);
  });

  it("lists every test with -v", async () => {
    const run = await rego(["test", "-v", EXAMPLES_DIR, join(files.dir, "passing")]);
    assert.match(run.stdout, /data\.limits_test\.test_alice_is_allowed: PASS \(/);
    assert.match(run.stdout, /data\.limits_test\.todo_test_later: SKIPPED/);
  });

  it("reports failures and errors and exits 2", async () => {
    const run = await rego(["test", "-v", join(files.dir, "failing")]);
    assert.equal(run.code, 2);
    assert.match(run.stdout, /data\.f_test\.test_ok: PASS/);
    assert.match(run.stdout, /data\.f_test\.test_wrong: FAIL/);
    assert.match(run.stdout, / {2}checking 2\n/);
    assert.match(run.stdout, /data\.f_test\.test_conflict: ERROR/);
    assert.match(run.stdout, /eval_conflict_error/);
    assert.match(run.stdout, /PASS: 1\/3\nFAIL: 1\/3\nERROR: 1\/3\n$/);
  });

  it("filters tests by name with --run and writes JSON", async () => {
    const run = await rego([
      "test",
      "--run",
      "test_wrong$",
      "-f",
      "json",
      join(files.dir, "failing"),
    ]);
    assert.equal(run.code, 2);
    const out = JSON.parse(run.stdout) as { name: string; package: string; fail?: boolean }[];
    assert.equal(out.length, 1);
    assert.equal(out[0]?.name, "test_wrong");
    assert.equal(out[0]?.package, "data.f_test");
    assert.equal(out[0]?.fail, true);
  });

  it("exits 1 when the policies do not parse", async () => {
    const run = await rego(["test", join(files.dir, "broken")]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /rego_parse_error/);
  });

  it("answers usage errors with exit 2", async () => {
    assert.equal((await rego(["test"])).code, 2);
    assert.equal((await rego(["test", "--run", "(", EXAMPLES_DIR])).code, 2);
  });
});
