/** `rego exec`: one decision per input file, opa exec's output shape and fail flags. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { EXAMPLES_DIR, tempTree } from "../fixtures.js";
import { rego } from "./cli-harness.js";

const files = tempTree({
  "inputs/a-alice.json": '{"name": "alice"}',
  "inputs/b-mallory.yaml": "name: mallory\n",
  "inputs/notes.txt": "ignored",
  "bad/c.json": "{nope",
});
after(() => files.remove());

interface ExecOutput {
  result: { path: string; result?: unknown; error?: { code: string; message: string } }[];
}

describe("rego exec", () => {
  it("decides once per input file, in path order", async () => {
    const run = await rego([
      "exec",
      "--decision",
      "/limits",
      "-b",
      EXAMPLES_DIR,
      join(files.dir, "inputs"),
    ]);
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout) as ExecOutput;
    assert.deepEqual(
      out.result.map((r) => [r.path.slice(files.dir.length + 1), r.result]),
      [
        ["inputs/a-alice.json", { allow: true, limit: 10000.5, role: "admin" }],
        ["inputs/b-mallory.yaml", { allow: false, limit: 0 }],
      ],
    );
  });

  it("reports an undefined decision as an error item, exit 1 with --fail", async () => {
    const args = [
      "exec",
      "--decision",
      "limits/role",
      "-b",
      EXAMPLES_DIR,
      join(files.dir, "inputs"),
    ];
    const plain = await rego(args);
    assert.equal(plain.code, 0);
    const out = JSON.parse(plain.stdout) as ExecOutput;
    assert.equal(out.result[0]?.result, "admin");
    assert.deepEqual(out.result[1]?.error, {
      code: "opa_undefined_error",
      message: "limits/role decision was undefined",
    });
    assert.equal((await rego([...args, "--fail"])).code, 1);
    assert.equal((await rego([...args, "--fail-defined"])).code, 1);
  });

  it("reads one more input from stdin and reports malformed inputs per file", async () => {
    const run = await rego(
      ["exec", "--decision", "/simple/allow", "-b", EXAMPLES_DIR, "-I", join(files.dir, "bad")],
      {
        stdin: '{"name":"alice"}',
      },
    );
    const out = JSON.parse(run.stdout) as ExecOutput;
    assert.equal(out.result[0]?.error?.code, "invalid_input");
    assert.deepEqual(out.result[1], { path: "--stdin-input", result: true });
  });

  it("answers usage errors with exit 2 and missing paths with exit 1", async () => {
    assert.equal((await rego(["exec", "-b", EXAMPLES_DIR])).code, 2);
    assert.equal((await rego(["exec", "--fail", "--fail-defined", "x.json"])).code, 2);
    const missing = await rego(["exec", "-b", EXAMPLES_DIR, join(files.dir, "nope")]);
    assert.equal(missing.code, 1);
  });
});
