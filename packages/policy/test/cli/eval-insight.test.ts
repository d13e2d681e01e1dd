/** `rego eval --explain/--profile/--metrics/--instrument/--coverage`: OPA's trace and reports. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { tempTree } from "../fixtures.js";
import { rego } from "./cli-harness.js";

const POLICY = `package t

allow if {
	x := input.a
	x > 1
	trace("checked")
}

deny if {
	input.a == 0
}

s contains v if {
	some v in [1, 2]
}
`;

const files = tempTree({ "t.rego": POLICY, "in.json": '{"a": 5}' });
after(() => files.remove());
const policy = join(files.dir, "t.rego");
const input = join(files.dir, "in.json");

/** The op and node of each trace line (location column and indentation dropped). */
function ops(trace: string): string[] {
  return trace
    .trimEnd()
    .split("\n")
    .map((line) => line.replace(/^\S+\s+/, "").replace(/^(\| )+/, ""));
}

describe("rego eval --explain", () => {
  it("full: Enter, Eval, Exit and Redo of the query and the rule, with the note", async () => {
    const r = await rego([
      "eval",
      "-d",
      policy,
      "-i",
      input,
      "--explain=full",
      "-f",
      "pretty",
      "data.t.allow",
    ]);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trimEnd().split("\n");
    assert.equal(lines.at(-1), "true");
    const trace = lines.slice(0, -1).join("\n");
    assert.deepEqual(ops(trace), [
      "Enter data.t.allow",
      "Eval data.t.allow",
      "Enter data.t.allow",
      "Eval x := input.a",
      "Eval x > 1",
      'Eval trace("checked")',
      'Note "checked"',
      "Exit data.t.allow early",
      "Exit data.t.allow",
      "Redo data.t.allow",
      "Redo data.t.allow",
    ]);
    // Location column padded to the widest plus four; one "| " per level below the query.
    assert.match(lines[0] as string, /^query:1 {4,}Enter data\.t\.allow$/);
    assert.match(lines[1] as string, /^query:1 +\| Eval data\.t\.allow$/);
    assert.match(lines[3] as string, new RegExp(`^${policy}:4 +\\| \\| Eval x := input\\.a$`));
    const starts = new Set(
      lines.slice(0, -1).map((l) => l.search(/(Enter|Eval|Exit|Redo|Note|\|)/)),
    );
    assert.equal(starts.size, 1, "every event starts in the same column");
  });

  it("notes: only the note and the Enter events leading to it", async () => {
    const r = await rego([
      "eval",
      "-d",
      policy,
      "-i",
      input,
      "--explain",
      "notes",
      "-f",
      "pretty",
      "data.t.allow",
    ]);
    assert.equal(r.code, 0, r.stderr);
    const trace = r.stdout.trimEnd().split("\n").slice(0, -1).join("\n");
    assert.deepEqual(ops(trace), ["Enter data.t.allow", "Enter data.t.allow", 'Note "checked"']);
  });

  it("fails: the failing expression in its rule, then the query's failure", async () => {
    const r = await rego([
      "eval",
      "-d",
      policy,
      "-i",
      input,
      "--explain",
      "fails",
      "-f",
      "pretty",
      "data.t.deny",
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(ops(r.stdout.replace(/undefined\n$/, "")), [
      "Enter data.t.deny",
      "Enter data.t.deny",
      "Fail input.a == 0",
      "Fail data.t.deny",
    ]);
  });

  it("json: the events under explanation, after result", async () => {
    const r = await rego(["eval", "-d", policy, "-i", input, "--explain", "full", "data.t.allow"]);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.deepEqual(Object.keys(out), ["result", "explanation"]);
    const note = out.explanation.find((e: { op: string }) => e.op === "Note");
    assert.equal(note.message, "checked");
    assert.deepEqual(note.location, { file: policy, row: 6, col: 2 });
    assert.equal(note.parent_id, 1);
  });

  it("prints the trace up to an evaluation error, then the error", async () => {
    const r = await rego([
      "eval",
      "-d",
      policy,
      "--explain",
      "full",
      "-f",
      "pretty",
      "--strict-builtin-errors",
      'x := 1; to_number("x")',
    ]);
    assert.equal(r.code, 2);
    assert.match(r.stdout, /Eval to_number\("x"\)\n$/);
    assert.match(r.stderr, /eval_builtin_error/);
  });

  it("rejects an unknown mode", async () => {
    const r = await rego(["eval", "--explain", "loud", "1"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--explain: unknown mode "loud"/);
  });
});

describe("rego eval --profile, --metrics, --instrument, --coverage", () => {
  it("profiles each evaluated line with OPA's columns", async () => {
    const r = await rego([
      "eval",
      "-d",
      policy,
      "-i",
      input,
      "--profile",
      "-f",
      "pretty",
      "data.t",
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /\| +TIME +\| NUM EVAL \| NUM REDO \| NUM GEN EXPR \| +LOCATION +\|/);
    const row14 = r.stdout.split("\n").find((l) => l.includes(`${policy}:14 `));
    assert.ok(row14, r.stdout);
    // `some v in [1, 2]`: evaluated once, re-entered for its second element and at the end.
    assert.deepEqual(
      row14
        .split("|")
        .slice(2, 5)
        .map((c) => c.trim()),
      ["1", "2", "1"],
    );
  });

  it("--profile-limit keeps the first rows of --profile-sort's order", async () => {
    const r = await rego([
      "eval",
      "-d",
      policy,
      "-i",
      input,
      "--profile-limit",
      "2",
      "--profile-sort",
      "line",
      "data.t",
    ]);
    assert.equal(r.code, 0, r.stderr);
    const profile = JSON.parse(r.stdout).profile as { location: { row: number } }[];
    assert.deepEqual(
      profile.map((p) => p.location.row),
      [14, 10],
    );
    const bad = await rego(["eval", "--profile-sort", "speed", "1"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /unknown criterion "speed"/);
  });

  it("--metrics reports OPA's timers; --instrument adds evaluation counters", async () => {
    const m = await rego(["eval", "-d", policy, "--metrics", "data.t.s"]);
    assert.equal(m.code, 0, m.stderr);
    const metrics = JSON.parse(m.stdout).metrics as Record<string, number>;
    for (const name of [
      "timer_rego_load_files_ns",
      "timer_rego_module_compile_ns",
      "timer_rego_query_parse_ns",
      "timer_rego_query_compile_ns",
      "timer_rego_query_eval_ns",
    ])
      assert.ok(Number.isInteger(metrics[name]) && (metrics[name] as number) >= 0, name);
    const i = await rego(["eval", "-d", policy, "--instrument", "-f", "pretty", "data.t.s"]);
    assert.equal(i.code, 0, i.stderr);
    assert.match(i.stdout, /\| +METRIC +\| +VALUE +\|/);
    assert.match(i.stdout, /\| counter_eval_op_rule_eval +\| 1 +\|/);
  });

  it("--coverage reports covered and not covered lines of the loaded policy", async () => {
    const r = await rego(["eval", "-d", policy, "-i", input, "--coverage", "data.t.allow"]);
    assert.equal(r.code, 0, r.stderr);
    const cov = JSON.parse(r.stdout).coverage;
    assert.deepEqual(cov.files[policy], {
      covered: [{ start: { row: 3 }, end: { row: 6 } }],
      not_covered: [
        { start: { row: 9 }, end: { row: 10 } },
        { start: { row: 13 }, end: { row: 14 } },
      ],
      covered_lines: 4,
      not_covered_lines: 4,
      coverage: 50,
    });
    assert.equal(cov.coverage, 50);
    const pretty = await rego([
      "eval",
      "-d",
      policy,
      "-i",
      input,
      "--coverage",
      "-f",
      "pretty",
      "data.t.allow",
    ]);
    assert.match(pretty.stdout, /\| Overall Coverage \| 50\.00 \|/);
  });

  it("without these flags the output has only the result", async () => {
    const r = await rego(["eval", "-d", policy, "data.t.s"]);
    assert.deepEqual(Object.keys(JSON.parse(r.stdout)), ["result"]);
  });
});
