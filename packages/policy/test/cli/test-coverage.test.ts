/** `rego test --coverage/--threshold/--bench`: OPA's coverage report and benchmark lines. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { tempTree } from "../fixtures.js";
import { rego } from "./cli-harness.js";

const files = tempTree({
  "pol/p.rego": `package p

allow if {
	input.user == "alice"
}

deny if {
	input.user == "bob"
}

names := [n | some n in ["a", "b"]]
`,
  "pol/p_test.rego": `package p_test

import data.p

test_alice if {
	p.allow with input as {"user": "alice"}
}
`,
  "failing/f_test.rego": `package f_test

test_no if {
	1 == 2
}
`,
});
after(() => files.remove());
const dir = join(files.dir, "pol");
const range = (start: number, end: number) => ({ start: { row: start }, end: { row: end } });

describe("rego test --coverage", () => {
  it("reports covered and not covered line ranges per file and overall", async () => {
    const r = await rego(["test", "--coverage", dir]);
    assert.equal(r.code, 0, r.stderr);
    const report = JSON.parse(r.stdout);
    assert.deepEqual(report.files[join(dir, "p.rego")], {
      covered: [range(3, 4)],
      not_covered: [range(7, 8), range(11, 11)],
      covered_lines: 2,
      not_covered_lines: 3,
      coverage: 40,
    });
    assert.deepEqual(report.files[join(dir, "p_test.rego")], {
      covered: [range(5, 6)],
      covered_lines: 2,
      coverage: 100,
    });
    assert.equal(report.covered_lines, 4);
    assert.equal(report.not_covered_lines, 3);
    assert.equal(report.coverage, (100 * 4) / 7);
  });

  it("--threshold fails below the percentage, listing uncovered lines with -v", async () => {
    const low = await rego(["test", "--threshold", "50", dir]);
    assert.equal(low.code, 0, low.stderr);
    const high = await rego(["test", "--threshold", "60", dir]);
    assert.equal(high.code, 2);
    assert.equal(high.stdout, "");
    assert.equal(high.stderr, "Code coverage threshold not met: got 57.14 instead of 60.00\n");
    const verbose = await rego(["test", "-v", "--coverage", "--threshold", "60", dir]);
    assert.equal(verbose.code, 2);
    assert.match(verbose.stderr, /Lines not covered:\n\t.*p\.rego:7-8\n\t.*p\.rego:11\n$/);
    const bad = await rego(["test", "--threshold", "lots", dir]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--threshold: "lots" is not a percentage/);
  });

  it("a failing test makes --coverage exit 2 with the failure", async () => {
    const r = await rego(["test", "--coverage", join(files.dir, "failing")]);
    assert.equal(r.code, 2);
    assert.equal(r.stdout, "");
    assert.match(r.stderr, /data\.f_test\.test_no: FAIL/);
  });
});

describe("rego test --bench", () => {
  it("prints a Go benchmark line per passing test", async () => {
    const r = await rego(["test", "--bench", "--benchtime", "20", dir]);
    assert.equal(r.code, 0, r.stderr);
    const line = r.stdout.split("\n")[0] as string;
    const m =
      /^data\.p_test\.test_alice\t +(\d+)\t +(\d+(?:\.\d+)?) ns\/op\t +(\d+(?:\.\d+)?) timer_rego_query_eval_ns\/op$/.exec(
        line,
      );
    assert.ok(m, line);
    assert.ok(Number(m[1]) >= 1);
    assert.match(r.stdout, /PASS: 1\/1\n$/);
  });

  it("adds benchmark_result to the JSON report", async () => {
    const r = await rego(["test", "--bench", "--benchtime", "10", "-f", "json", dir]);
    assert.equal(r.code, 0, r.stderr);
    const [item] = JSON.parse(r.stdout);
    assert.ok(item.benchmark_result.N >= 1);
    assert.ok(item.benchmark_result.Extra["timer_rego_query_eval_ns/op"] >= 0);
  });
});
