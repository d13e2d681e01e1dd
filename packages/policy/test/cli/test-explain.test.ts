/**
 * `rego test -v` / `--explain`: failed tests' traces under FAILURES, as OPA's pretty
 * reporter prints them (location column padded to the widest plus four, `| ` per level),
 * and the `trace` of each result in `--format json`.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { tempTree } from "../fixtures.js";
import { rego } from "./cli-harness.js";

const files = tempTree({
  "t_test.rego": `package t

test_a if {
	x := 1
	x == 1
}

test_b if {
	trace("checking b")
	y := 2
	y == 3
}
`,
  "p_test.rego": `package p

test_prints if {
	print("got", 1 + 1)
	false
}

todo_test_later if false
`,
});

// Relative file names, so the location column is the same on every machine.
const cwd = process.cwd();
before(() => process.chdir(files.dir));
after(() => {
  process.chdir(cwd);
  files.remove();
});

/** Durations vary from run to run. */
function steady(text: string): string {
  return text.replace(/ \((\d[\d.]*(ns|µs|ms|s))\)/g, " (DUR)");
}

const RULE = "-".repeat(80);

const SUMMARY = `SUMMARY
${RULE}
t_test.rego:
data.t.test_a: PASS (DUR)
data.t.test_b: FAIL (DUR)
${RULE}
PASS: 1/2
FAIL: 1/2
`;

describe("rego test -v / --explain", () => {
  it("-v shows a failed test's notes and failures with the queries leading to them", async () => {
    const run = await rego(["test", "-v", "t_test.rego"]);
    assert.equal(run.code, 2);
    assert.equal(
      steady(run.stdout),
      `FAILURES
${RULE}
data.t.test_b: FAIL (DUR)

  query:1            Enter data.t.test_b = _
  t_test.rego:8      | Enter data.t.test_b
  t_test.rego:9      | | Note "checking b"
  t_test.rego:11     | | Fail y == 3
  query:1            | Fail data.t.test_b = _

${SUMMARY}`,
    );
  });

  it("--explain fails keeps only the failures and implies -v", async () => {
    const run = await rego(["test", "--explain", "fails", "t_test.rego"]);
    assert.equal(run.code, 2);
    assert.equal(
      steady(run.stdout),
      `FAILURES
${RULE}
data.t.test_b: FAIL (DUR)

  query:1            Enter data.t.test_b = _
  t_test.rego:8      | Enter data.t.test_b
  t_test.rego:11     | | Fail y == 3
  query:1            | Fail data.t.test_b = _

${SUMMARY}`,
    );
  });

  it("--explain notes keeps only the trace() notes", async () => {
    const run = await rego(["test", "--explain=notes", "t_test.rego"]);
    assert.equal(
      steady(run.stdout),
      `FAILURES
${RULE}
data.t.test_b: FAIL (DUR)

  query:1           Enter data.t.test_b = _
  t_test.rego:8     | Enter data.t.test_b
  t_test.rego:9     | | Note "checking b"

${SUMMARY}`,
    );
  });

  it("--explain full and debug show every event", async () => {
    for (const mode of ["full", "debug"]) {
      const run = await rego(["test", "--explain", mode, "t_test.rego"]);
      const trace = run.stdout.split("\n").filter((l) => l.startsWith("  "));
      assert.deepEqual(
        trace.map((l) => l.trim().replace(/ +/, " ")),
        [
          "query:1 Enter data.t.test_b = _",
          "query:1 | Eval data.t.test_b = _",
          "t_test.rego:8 | Enter data.t.test_b",
          't_test.rego:9 | | Eval trace("checking b")',
          't_test.rego:9 | | Note "checking b"',
          "t_test.rego:10 | | Eval y := 2",
          "t_test.rego:11 | | Eval y == 3",
          "t_test.rego:11 | | Fail y == 3",
          "t_test.rego:10 | | Redo y := 2",
          't_test.rego:9 | | Redo trace("checking b")',
          "query:1 | Fail data.t.test_b = _",
        ],
        mode,
      );
    }
  });

  it("with --format json, each traced result carries its kept trace", async () => {
    const run = await rego(["test", "--explain", "fails", "-f", "json", "t_test.rego"]);
    assert.equal(run.code, 2);
    const out = JSON.parse(run.stdout) as {
      name: string;
      trace?: { op: string; node: string; location?: { file: string; row: number } }[];
    }[];
    assert.equal(out[0]?.name, "test_a");
    assert.equal(out[0]?.trace, undefined, "a passing test has no failure to trace");
    assert.deepEqual(
      out[1]?.trace?.map((e) => [e.op, e.node, e.location?.file, e.location?.row]),
      [
        ["Enter", "data.t.test_b = _", "query", 1],
        ["Enter", "data.t.test_b", "t_test.rego", 8],
        ["Fail", "y == 3", "t_test.rego", 11],
        ["Fail", "data.t.test_b = _", "query", 1],
      ],
    );
    const plain = await rego(["test", "-f", "json", "t_test.rego"]);
    assert.ok(!plain.stdout.includes('"trace"'), "no trace without -v or --explain");
  });

  it("shows a failed test's print output between blank lines, even without -v", async () => {
    const run = await rego(["test", "-z", "p_test.rego"]);
    assert.equal(run.code, 2);
    assert.equal(
      steady(run.stdout),
      `p_test.rego:
data.p.test_prints: FAIL (DUR)

  got 2

data.p.todo_test_later: SKIPPED
${RULE}
FAIL: 1/2
SKIPPED: 1/2
`,
    );
  });

  it("refuses an unknown --explain mode, naming the allowed ones", async () => {
    const run = await rego(["test", "--explain", "bogus", "t_test.rego"]);
    assert.equal(run.code, 2);
    assert.equal(run.stdout, "");
    assert.match(
      run.stderr,
      /^error: invalid argument "bogus" for "--explain" flag: must be one of \{fails,full,notes,debug\}\n/,
    );
    const off = await rego(["test", "--explain", "off", "t_test.rego"]);
    assert.equal(off.code, 2);
    assert.match(off.stderr, /must be one of/);
  });
});
