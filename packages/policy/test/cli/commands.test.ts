/** `rego inspect`, `check`, `parse`, `version` and `help`. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { EXAMPLES_DIR, tempTree } from "../fixtures.js";
import { rego } from "./cli-harness.js";

const files = tempTree({
  "bad/one.rego": "package one\n\np if {\n",
  "bad/two.rego": "package two\n\nq := x\n",
  "good/a.rego": "package a.b\n\np := 1\n",
  "good/more/a2.rego": "package a.b\n\nq := 2\n",
});
after(() => files.remove());

describe("rego inspect", () => {
  it("lists the namespaces of the examples with their files", async () => {
    const run = await rego(["inspect", EXAMPLES_DIR]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^NAMESPACES:\n/);
    for (const pkg of ["limits", "permissions", "simple"]) {
      assert.match(run.stdout, new RegExp(`\\| data\\.${pkg} +\\| .*policies/${pkg}\\.rego +\\|`));
    }
  });

  it("groups files of one package in JSON", async () => {
    const run = await rego(["inspect", "-f", "json", join(files.dir, "good")]);
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout) as { namespaces: Record<string, string[]> };
    assert.deepEqual(Object.keys(out.namespaces), ["data.a.b"]);
    assert.equal(out.namespaces["data.a.b"]?.length, 2);
  });

  it("fails with the errors of invalid policies", async () => {
    const run = await rego(["inspect", join(files.dir, "bad")]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /one\.rego:\d+: rego_parse_error/);
  });

  it("wants exactly one path", async () => {
    assert.equal((await rego(["inspect"])).code, 2);
    assert.equal((await rego(["inspect", "a", "b"])).code, 2);
  });
});

describe("rego check", () => {
  it("is silent on valid policies", async () => {
    const run = await rego(["check", EXAMPLES_DIR]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout + run.stderr, "");
  });

  it("lists compile errors and exits 1", async () => {
    const run = await rego(["check", join(files.dir, "bad", "two.rego")]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /two\.rego:3: rego_unsafe_var_error: var x is unsafe/);
  });
});

describe("rego parse", () => {
  it("prints the syntax tree of a module as JSON", async () => {
    const run = await rego(["parse", "--format", "json", join(files.dir, "good", "a.rego")]);
    assert.equal(run.code, 0, run.stderr);
    assert.ok(JSON.parse(run.stdout));
    assert.match(run.stdout, /"p"/);
  });

  it("reports parse errors and exits 1", async () => {
    const run = await rego(["parse", join(files.dir, "bad", "one.rego")]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /rego_parse_error/);
  });
});

describe("rego bench and completion", () => {
  it("benchmarks a query and prints samples and ns/op", async () => {
    const run = await rego([
      "bench",
      "--benchtime",
      "50",
      "-f",
      "json",
      "-d",
      EXAMPLES_DIR,
      "data.simple.env",
    ]);
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout) as Record<string, number>;
    assert.ok((out.samples ?? 0) > 0);
    assert.ok((out["ns/op"] ?? 0) > 0);
    assert.ok("histogram_timer_rego_query_eval_ns_50%" in out);
    const pretty = await rego([
      "bench",
      "--benchtime",
      "20",
      "-d",
      EXAMPLES_DIR,
      "data.simple.env",
    ]);
    assert.match(pretty.stdout, /\| samples +\| +\d+ \|/);
  });

  it("fails on an undefined query unless --fail=false", async () => {
    const args = ["bench", "--benchtime", "20", "-d", EXAMPLES_DIR, "data.nothing"];
    assert.equal((await rego(args)).code, 1);
    assert.equal((await rego([...args, "--fail=false"])).code, 0);
    assert.equal((await rego(["bench", "--count", "0", "x"])).code, 2);
  });

  it("prints a bash completion script naming every command", async () => {
    const run = await rego(["completion", "bash"]);
    assert.equal(run.code, 0);
    assert.match(run.stdout, /complete -F _rego_complete rego/);
    assert.match(run.stdout, /eval .*run|run .*eval/);
    assert.equal((await rego(["completion", "fish"])).code, 2);
  });
});

describe("rego capabilities", () => {
  it("lists the known version without flags", async () => {
    const run = await rego(["capabilities"]);
    assert.equal(run.code, 0);
    assert.match(run.stdout, /^v\d+\.\d+\.\d+\n$/);
  });

  it("prints every builtin with OPA's declaration shape", async () => {
    const run = await rego(["capabilities", "--current"]);
    assert.equal(run.code, 0);
    const doc = JSON.parse(run.stdout) as {
      builtins: { name: string; decl: { args: unknown[]; result: unknown; type: string } }[];
      future_keywords: string[];
    };
    const byName = new Map(doc.builtins.map((b) => [b.name, b]));
    assert.deepEqual(byName.get("net.cidr_merge")?.decl, {
      args: [
        {
          type: "any",
          of: [
            { type: "array", dynamic: { type: "string" } },
            { type: "set", of: { type: "string" } },
          ],
        },
      ],
      result: { type: "set", of: { type: "string" } },
      type: "function",
    });
    assert.deepEqual(byName.get("time.now_ns")?.decl, {
      args: [],
      result: { type: "number" },
      type: "function",
    });
    assert.deepEqual(doc.future_keywords, ["contains", "every", "if", "in"]);
  });

  it("marks the builtins OPA deprecates, and only those", async () => {
    for (const args of [
      ["--current"],
      ["--version", (await rego(["capabilities"])).stdout.trim()],
    ]) {
      const run = await rego(["capabilities", ...args]);
      assert.equal(run.code, 0);
      const doc = JSON.parse(run.stdout) as { builtins: { name: string; deprecated?: boolean }[] };
      const marked = doc.builtins.filter((b) => b.deprecated === true).map((b) => b.name);
      assert.deepEqual(marked, [
        "all",
        "any",
        "cast_array",
        "cast_boolean",
        "cast_null",
        "cast_object",
        "cast_set",
        "cast_string",
        "net.cidr_overlap",
        "re_match",
        "set_diff",
      ]);
      assert.ok(doc.builtins.every((b) => b.deprecated === undefined || b.deprecated === true));
    }
  });

  it("refuses versions it does not know", async () => {
    const run = await rego(["capabilities", "--version", "v0.0.1"]);
    assert.equal(run.code, 1);
  });
});

describe("rego version, help and unknown commands", () => {
  it("prints version lines", async () => {
    const run = await rego(["version"]);
    assert.equal(run.code, 0);
    assert.match(run.stdout, /^Version: \d+\.\d+\.\d+\n/);
    assert.match(run.stdout, /Rego Version: v1\n/);
  });

  it("lists every command and the environment variables", async () => {
    const run = await rego(["help"]);
    assert.equal(run.code, 0);
    for (const name of [
      "bench",
      "build",
      "capabilities",
      "check",
      "completion",
      "deps",
      "eval",
      "exec",
      "fmt",
      "help",
      "inspect",
      "parse",
      "run",
      "sign",
      "test",
      "version",
    ]) {
      // Each command once.
      assert.equal(run.stdout.match(new RegExp(`\\n  ${name} `, "g"))?.length, 1, name);
    }
    assert.match(run.stdout, /REGO_MAX_BODY_BYTES/);
    const one = await rego(["help", "eval"]);
    assert.match(one.stdout, /--fail-defined/);
  });

  it("answers an unknown command or none with usage and exit 2", async () => {
    const unknown = await rego(["frobnicate"]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown command "frobnicate"/);
    assert.equal((await rego([])).code, 2);
  });
});
