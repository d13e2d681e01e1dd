/** `rego eval`: output shapes, formats, fail flags and error reports, as opa eval has them. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { EXAMPLES_DIR, tempTree } from "../fixtures.js";
import { rego } from "./cli-harness.js";

const files = tempTree({
  "alice.json": JSON.stringify({ name: "alice", role: "admin" }),
  "mallory.yaml": "name: mallory\n",
  "deep.json": `${"[".repeat(10000)}${"]".repeat(10000)}`,
  "broken/a.rego": "package a\n\np := := 1\n",
  "broken/b.rego": "package b\n\nq if {\n",
  "v0/old.rego":
    'package old\n\nallow { input.name == "alice" }\n\nnames[n] { n := input.names[_] }\n',
});
after(() => files.remove());

describe("rego eval", () => {
  it("prints opa eval's JSON shape for a package decision", async () => {
    const run = await rego([
      "eval",
      "-d",
      EXAMPLES_DIR,
      "-i",
      join(files.dir, "alice.json"),
      "data.permissions",
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), {
      result: [
        {
          expressions: [
            {
              value: { allow: true, perms: ["execute", "read", "write"] },
              text: "data.permissions",
              location: { row: 1, col: 1 },
            },
          ],
        },
      ],
    });
    assert.ok(run.stdout.startsWith('{\n  "result": ['), "indented by two spaces");
    assert.ok(run.stdout.endsWith("}\n"));
  });

  it("includes bindings of named variables", async () => {
    const run = await rego(["eval", "-d", EXAMPLES_DIR, "x := data.limits_by_roles.admin"]);
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout) as {
      result: { bindings: unknown; expressions: { value: unknown }[] }[];
    };
    assert.deepEqual(out.result[0]?.bindings, { x: 10000.5 });
    assert.equal(out.result[0]?.expressions[0]?.value, true);
  });

  it("prints {} for an undefined result and exits 0, or 1 with --fail", async () => {
    const args = [
      "eval",
      "-d",
      EXAMPLES_DIR,
      "-i",
      join(files.dir, "mallory.yaml"),
      "data.limits.role",
    ];
    const plain = await rego(args);
    assert.equal(plain.code, 0);
    assert.equal(plain.stdout, "{}\n");
    const failing = await rego([...args, "--fail"]);
    assert.equal(failing.code, 1);
  });

  it("exits 1 with --fail-defined when the result is defined", async () => {
    const run = await rego(["eval", "--fail-defined", "-d", EXAMPLES_DIR, "data.simple.env"]);
    assert.equal(run.code, 1);
    const ok = await rego(["eval", "--fail", "-d", EXAMPLES_DIR, "data.simple.env"]);
    assert.equal(ok.code, 0);
  });

  it("answers false for a lone false expression, so --fail passes and --fail-defined trips", async () => {
    for (const query of ["false", "1 == 2"]) {
      const run = await rego(["eval", "--format", "values", query]);
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(JSON.parse(run.stdout), [false]);
      assert.equal((await rego(["eval", "--fail", query])).code, 0);
      assert.equal((await rego(["eval", "--fail-defined", query])).code, 1);
    }
    const undefinedRun = await rego(["eval", "--fail", "1 == 2; true"]);
    assert.equal(undefinedRun.code, 1);
    assert.equal(undefinedRun.stdout, "{}\n");
  });

  it("refuses input nested 10,000 deep by name, exit 2, without a stack overflow", async () => {
    const run = await rego(["eval", "-i", join(files.dir, "deep.json"), "x := count(input)"]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /nesting exceeds the maximum depth of 1000/);
    assert.doesNotMatch(run.stderr, /call stack/);
  });

  it("stops one long numbers.range expression at --timeout, with no size cap first", async () => {
    const run = await rego(["eval", "--timeout", "50ms", "count(numbers.range(1, 50000000))"]);
    assert.equal(run.code, 2);
    const out = JSON.parse(run.stdout) as { errors: { code: string }[] };
    assert.equal(out.errors[0]?.code, "eval_cancel_error");
    const fits = await rego(["eval", "-f", "values", "count(numbers.range(1, 1500000))"]);
    assert.deepEqual(JSON.parse(fits.stdout), [1500000]);
  });

  it("supports the values, bindings, raw and pretty formats", async () => {
    const base = ["eval", "-d", EXAMPLES_DIR];
    const values = await rego([...base, "--format", "values", "data.simple.env"]);
    assert.deepEqual(JSON.parse(values.stdout), ["dev"]);
    const bindings = await rego([...base, "--format", "bindings", "x := data.simple.env"]);
    assert.deepEqual(JSON.parse(bindings.stdout), { x: "dev" });
    const raw = await rego([...base, "--format", "raw", "data.simple.env"]);
    assert.equal(raw.stdout, "dev\n");
    const rawObject = await rego([...base, "--format=raw", "data.user_roles.bob"]);
    assert.equal(rawObject.stdout, '{"active":true,"role":"user"}\n');
    const pretty = await rego([...base, "-f", "pretty", "data.limits_by_roles"]);
    assert.equal(
      pretty.stdout,
      '{\n  "admin": 10000.5,\n  "manager": 5000.25,\n  "user": 1000.75\n}\n',
    );
    const undefinedPretty = await rego([...base, "-f", "pretty", "data.nothing"]);
    assert.equal(undefinedPretty.stdout, "undefined\n");
  });

  it("reads the input from stdin with -I and the query with --stdin", async () => {
    const run = await rego(
      ["eval", "-I", "-d", EXAMPLES_DIR, "--format", "raw", "data.simple.allow"],
      {
        stdin: '{"name":"alice"}',
      },
    );
    assert.equal(run.stdout, "true\n");
    const q = await rego(["eval", "--stdin", "--format", "bindings"], { stdin: "x := 3\n" });
    assert.deepEqual(JSON.parse(q.stdout), { x: 3 });
  });

  it("reports every parse error of the loaded policies and exits 2", async () => {
    const run = await rego(["eval", "--format", "pretty", "-d", join(files.dir, "broken"), "data"]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /^2 errors occurred:\n/);
    assert.match(run.stderr, /broken\/a\.rego:3: rego_parse_error: /);
    assert.match(run.stderr, /broken\/b\.rego:\d+: rego_parse_error: /);
  });

  it("prints errors as JSON on stdout with the json format", async () => {
    const run = await rego(["eval", "x := := 1"]);
    assert.equal(run.code, 2);
    const out = JSON.parse(run.stdout) as { errors: { code: string }[] };
    assert.equal(out.errors[0]?.code, "rego_parse_error");
  });

  it("halts on builtin errors only with --strict-builtin-errors", async () => {
    const lenient = await rego(["eval", "--format", "raw", "x := 1 / 0"]);
    assert.equal(lenient.code, 0);
    assert.equal(lenient.stdout, "");
    const strict = await rego([
      "eval",
      "--strict-builtin-errors",
      "--format",
      "pretty",
      "x := 1 / 0",
    ]);
    assert.equal(strict.code, 2);
    assert.match(strict.stderr, /eval_builtin_error/);
  });

  it("answers usage errors with exit 2", async () => {
    for (const argv of [
      ["eval"],
      ["eval", "--format", "xml", "1"],
      ["eval", "--fail", "--fail-defined", "1"],
      ["eval", "--no-such-flag", "1"],
      ["eval", "--timeout", "soon", "1"],
    ]) {
      const run = await rego(argv);
      assert.equal(run.code, 2, argv.join(" "));
      assert.match(run.stderr, /^error: /);
    }
  });

  it("reads Rego v0 policies only with --v0-compatible", async () => {
    const args = ["eval", "-d", join(files.dir, "v0"), "-I", "--format", "raw", "data.old.allow"];
    const v1 = await rego(args, { stdin: '{"name":"alice"}' });
    assert.equal(v1.code, 2);
    const v0 = await rego([...args, "--v0-compatible"], { stdin: '{"name":"alice"}' });
    assert.equal(v0.code, 0, v0.stdout + v0.stderr);
    assert.equal(v0.stdout, "true\n");
  });

  it("prints float results and decimal literals with OPA's number text", async () => {
    const json = await rego(["eval", "0.3 - 0.2"]);
    assert.equal(json.code, 0, json.stderr);
    assert.match(json.stdout, /"value": 0\.10000000000000000001,/);
    const values = await rego(["eval", "--format", "values", "[0.00, 2 / 3, 1.50]"]);
    assert.equal(values.code, 0, values.stderr);
    assert.equal(values.stdout.replace(/\s+/g, ""), "[[0.00,0.6666666666666666667,1.50]]");
    const raw = await rego(["eval", "--format", "raw", "0.00"]);
    assert.equal(raw.stdout, "0.00\n");
  });

  it("reports a missing data path as a load error", async () => {
    const run = await rego(["eval", "--format", "pretty", "-d", join(files.dir, "nope"), "data"]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /nope: no such file or directory/);
  });
});
