/**
 * `rego check` as CI runs it: `--strict` (`-S`) with OPA's strict-mode checks and their
 * messages and locations, the checks Rego v1 makes always, `--max-errors` and
 * `--capabilities`. Expected texts are OPA's (v1/ast/compile.go and its tests).
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { capabilitiesDocument } from "../../src/cli/commands/capabilities.js";
import { tempTree } from "../fixtures.js";
import { type CliRun, rego } from "./cli-harness.js";

const tree = tempTree({});
after(() => tree.remove());
let files = 0;

/** Writes `source` to a fresh file and runs `rego check <flags> <file>`. */
async function check(source: string, flags: string[] = []): Promise<CliRun & { file: string }> {
  const file = join(tree.dir, `p${++files}.rego`);
  writeFileSync(file, source);
  return { ...(await rego(["check", ...flags, file])), file };
}

/** The error lines of a failed check, with the file name cut to `p.rego`. */
function lines(run: CliRun & { file: string }): string[] {
  return run.stderr
    .trim()
    .split("\n")
    .filter((l) => !/^\d+ errors? occurred:$/.test(l))
    .map((l) => l.replace(/^\d+ errors? occurred: /, "").replaceAll(run.file, "p.rego"));
}

/** The `[row, col, message]` of each error of a failed `--format json` check. */
async function located(source: string, flags: string[] = []): Promise<[number, number, string][]> {
  const run = await check(source, ["--format", "json", ...flags]);
  assert.equal(run.code, 1, run.stderr);
  const doc = JSON.parse(run.stderr) as {
    errors: { message: string; location: { row: number; col: number } }[];
  };
  return doc.errors.map((e) => [e.location.row, e.location.col, e.message]);
}

describe("rego check --strict: unused imports", () => {
  const src =
    "package p\nimport data.foo.bar as bar\nimport data.used\n\nr if {\n\tinput.bar == 11\n\tused\n}\n";

  it("reports an import no rule refers to, at the import", async () => {
    assert.deepEqual(await located(src, ["--strict"]), [
      [2, 1, "import data.foo.bar as bar unused"],
    ]);
  });

  it("is a strict-mode check only", async () => {
    assert.equal((await check(src)).code, 0);
  });

  it("a local of the same name, or the imported ref written out, is no use", async () => {
    const run = await check(
      "package p\nimport data.foo\nimport data.bar\n\nr if {\n\tfoo := true\n\tfoo\n}\n\ns := data.bar\n",
      ["-S"],
    );
    assert.deepEqual(lines(run), [
      "p.rego:2: rego_compile_error: import data.foo unused",
      "p.rego:3: rego_compile_error: import data.bar unused",
    ]);
  });

  it("future and rego.v1 imports are never unused; `import input` is used by input refs", async () => {
    const run = await check(
      "package p\nimport rego.v1\nimport future.keywords.in\nimport input\n\nr if input.x == 1\n",
      ["-S", "--v0-compatible"],
    );
    assert.equal(run.code, 0, run.stderr);
    const unused = await check("package p\nimport input\n\nr := 1\n", ["-S"]);
    assert.deepEqual(lines(unused), ["p.rego:2: rego_compile_error: import input unused"]);
  });
});

describe("rego check --strict: unused locals", () => {
  it("reports a var assigned and never used, at its assignment", async () => {
    const src = "package p\n\nr if {\n\tx := 1\n\ty := 2\n\ty > 1\n}\n";
    assert.deepEqual(await located(src, ["--strict"]), [[4, 2, "assigned var x unused"]]);
    assert.equal((await check(src)).code, 0);
  });

  it("in comprehensions too; a var the head uses is used", async () => {
    const src = "package p\n\nr := x if {\n\tx := [y | y := 1; z := 2]\n}\n";
    assert.deepEqual(await located(src, ["-S"]), [[4, 20, "assigned var z unused"]]);
  });

  it("a var used only inside a nested comprehension or every body is used", async () => {
    const src =
      "package p\n\nr if {\n\tx := 1\n\tz := 2\n\tcount([y | y := input[_]; y > x]) > 0\n\tevery a in input.xs { a > z }\n}\n";
    const run = await check(src, ["-S"]);
    assert.equal(run.code, 0, run.stderr);
  });

  it("reports a function argument no body uses, at the rule", async () => {
    const src = "package p\n\nf(x, y, _) := x + 1\n\ng(a, b) := 1 if a > 0\n\nelse := 2 if b > 0\n";
    assert.deepEqual(await located(src, ["-S"]), [
      [3, 1, "unused argument y. (hint: use _ (wildcard variable) instead)"],
    ]);
    assert.equal((await check(src)).code, 0);
  });

  it("a var declared with some and never used is an error without --strict", async () => {
    const src = "package p\n\nr if {\n\tsome x\n\tinput.a\n}\n";
    assert.deepEqual(await located(src), [[4, 2, "declared var x unused"]]);
  });

  it("so is an every variable the body never uses, reported at the body", async () => {
    const src = "package p\n\nr if {\n\tevery x in [] {\n\t\tfalse\n\t}\n}\n";
    assert.deepEqual(await located(src), [[5, 3, "declared var x unused"]]);
  });
});

describe("rego check: checks Rego v1 makes always and --strict makes for v0", () => {
  it("duplicate imports", async () => {
    const src = "package p\nimport data.foo\nimport data.bar.foo\n\nr if foo == 1\n";
    assert.deepEqual(await located(src), [[3, 1, "import must not shadow import data.foo"]]);
    const v0 = src.replace("r if foo == 1", "r { foo == 1 }");
    assert.equal((await check(v0, ["--v0-compatible"])).code, 0);
    assert.deepEqual(await located(v0, ["--v0-compatible", "-S"]), [
      [3, 1, "import must not shadow import data.foo"],
    ]);
  });

  it("rules named input or data", async () => {
    const src = "package p\n\ninput.a if true\n\np := 1\n\ndata.b := 2\n";
    assert.deepEqual(await located(src), [
      [3, 1, "rules must not shadow input (use a different rule name)"],
      [7, 1, "rules must not shadow data (use a different rule name)"],
    ]);
  });

  it("local assignments to input or data", async () => {
    const src = "package p\n\nq {\n\tinput := 4\n\tinput\n}\n";
    assert.equal((await check(src, ["--v0-compatible"])).code, 0);
    assert.deepEqual(await located(src, ["--v0-compatible", "-S"]), [
      [4, 2, "variables must not shadow input (use a different variable name)"],
    ]);
  });

  it("deprecated builtins, but not a user function of the same name", async () => {
    const src = 'package p\n\nq := any([true, false])\n\nr if re_match("a", "a")\n';
    assert.deepEqual(await located(src), [
      [3, 6, "deprecated built-in function calls in expression: any"],
      [5, 6, "deprecated built-in function calls in expression: re_match"],
    ]);
    const v0 = "package p\n\nq := all([true, false])\n";
    assert.equal((await check(v0, ["--v0-compatible"])).code, 0);
    assert.deepEqual(await located(v0, ["--v0-compatible", "-S"]), [
      [3, 6, "deprecated built-in function calls in expression: all"],
    ]);
    const own = "package p\n\nany(xs) := true in xs\n\nq := any([true, false])\n";
    assert.equal((await check(own, ["-S"])).code, 0);
  });

  it("function arguments named input or data, in any Rego version", async () => {
    const v0 = "package p\n\nf(data) = 1 { true }\n";
    assert.deepEqual(await located(v0, ["--v0-compatible"]), [
      [3, 1, "args must not shadow data (use a different variable name)"],
    ]);
  });
});

describe("rego check --strict on a clean library", () => {
  it("passes and prints nothing", async () => {
    const src = `package lib.k8s

import data.lib.util

deny contains msg if {
\tsome container in input.spec.containers
\tnot startswith(container.image, "registry.local/")
\tmsg := sprintf("image %v not allowed", [container.image])
}

labels := {k: v | some k, v in input.metadata.labels; k != "x"}

has_label(obj, key) if obj.metadata.labels[key]

named(_, name) := upper(name)

ok if {
\tevery c in input.spec.containers {
\t\tc.name != util.banned
\t}
}
`;
    const run = await check(src, ["--strict"]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout + run.stderr, "");
  });
});

describe("rego check --max-errors", () => {
  const rules = (n: number) =>
    `package many\n${Array.from({ length: n }, (_, i) => `r${i} := x${i}\n`).join("")}`;

  it("stops at OPA's default of 10 errors with `error limit reached`", async () => {
    const run = await check(rules(12));
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^11 errors occurred:\n/);
    const out = lines(run);
    assert.equal(out.length, 11);
    assert.equal(out[9], "p.rego:11: rego_unsafe_var_error: var x9 is unsafe");
    assert.equal(out[10], "rego_compile_error: error limit reached");
  });

  it("adds the limit error as soon as the limit is reached, as OPA's compiler does", async () => {
    const run = await check(rules(3), ["-m", "3"]);
    assert.deepEqual(lines(run).slice(2), [
      "p.rego:4: rego_unsafe_var_error: var x2 is unsafe",
      "rego_compile_error: error limit reached",
    ]);
    assert.equal(lines(await check(rules(3), ["-m", "4"])).length, 3);
  });

  it("takes a custom limit, and 0 for none", async () => {
    assert.equal(lines(await check(rules(12), ["--max-errors", "2"])).length, 3);
    const all = await check(rules(12), ["--max-errors", "0"]);
    assert.match(all.stderr, /^12 errors occurred:\n/);
    assert.doesNotMatch(all.stderr, /error limit reached/);
  });

  it("counts errors of the first failing stage only, in OPA's stage order", async () => {
    // 12 unsafe vars (a safety stage) and 11 undefined functions (an earlier stage).
    const calls = Array.from({ length: 11 }, (_, i) => `f${i} := nosuch${i}(1)\n`).join("");
    const run = await check(`${rules(12)}${calls}`);
    assert.equal(run.code, 1);
    const out = lines(run);
    assert.equal(out.length, 11);
    assert.equal(out[0], "p.rego:14: rego_type_error: undefined function nosuch0");
    assert.equal(out[9], "p.rego:23: rego_type_error: undefined function nosuch9");
    assert.equal(out[10], "rego_compile_error: error limit reached");
    const few = lines(await check(`${rules(12)}f := nosuch(1)\n`));
    assert.deepEqual(few, ["p.rego:14: rego_type_error: undefined function nosuch"]);
  });

  it("reports the limit in JSON without a location", async () => {
    const run = await check(rules(2), ["-m", "1", "-f", "json"]);
    const doc = JSON.parse(run.stderr) as { errors: { code: string; message: string }[] };
    assert.deepEqual(doc.errors[1], { code: "rego_compile_error", message: "error limit reached" });
  });

  it("refuses a limit that is not a number", async () => {
    const run = await check(rules(1), ["-m", "ten"]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /invalid argument "ten" for "-m, --max-errors" flag/);
  });
});

describe("rego check --capabilities", () => {
  const src = 'package p\n\nr if {\n\tx := lower(input.a)\n\tx == "a"\n\t1 in {1, 2} | {3}\n}\n';
  const write = (name: string, doc: unknown) => {
    const path = join(tree.dir, name);
    writeFileSync(path, JSON.stringify(doc));
    return path;
  };
  const full = capabilitiesDocument() as { builtins: { name: string }[] };

  it("passes with this engine's own capabilities, as a file or by version", async () => {
    const path = write("caps.json", full);
    assert.equal((await check(src, ["--capabilities", path])).code, 0);
    const version = (await rego(["capabilities"])).stdout.trim();
    assert.equal((await check(src, ["--capabilities", version])).code, 0);
  });

  it("refuses a builtin the capabilities lack: `undefined function`", async () => {
    const path = write("caps-no-lower.json", {
      ...full,
      builtins: full.builtins.filter((b) => b.name !== "lower"),
    });
    assert.deepEqual(await located(src, ["--capabilities", path]), [
      [4, 7, "undefined function lower"],
    ]);
  });

  it("takes deprecation from the capabilities file", async () => {
    const builtins = full.builtins.map((b) =>
      b.name === "lower" ? { ...b, deprecated: true } : b,
    );
    const path = write("caps-deprecated.json", { ...full, builtins });
    assert.deepEqual(await located(src, ["--capabilities", path]), [
      [4, 7, "deprecated built-in function calls in expression: lower"],
    ]);
  });

  it("accepts builtins the capabilities declare that this engine lacks, with their arity", async () => {
    const custom = {
      name: "custom.parse",
      decl: { type: "function", args: [{ type: "string" }], result: { type: "any" } },
    };
    const path = write("caps-custom.json", { ...full, builtins: [...full.builtins, custom] });
    const uses = 'package p\n\nr := custom.parse(lower("A"))\n';
    assert.deepEqual(await located(uses, []), [[3, 6, "undefined function custom.parse"]]);
    const run = await check(uses, ["--capabilities", path]);
    assert.equal(run.code, 0, run.stderr);
    const tooMany = 'package p\n\nr := custom.parse("a", "b")\n';
    assert.deepEqual(await located(tooMany, ["--capabilities", path]), [
      [3, 6, "custom.parse: too many arguments: want 1, got 2"],
    ]);
  });

  it("refuses a declared builtin whose decl.args is not an array", async () => {
    const bad = { name: "custom.g", decl: { type: "function", args: "string" } };
    const path = write("caps-bad-decl.json", { ...full, builtins: [...full.builtins, bad] });
    const run = await check(src, ["--capabilities", path]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /custom\.g: decl\.args must be an array/);
  });

  it("refuses a path that is neither a file nor a known version", async () => {
    const run = await check(src, ["--capabilities", join(tree.dir, "missing.json")]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /no such file or capabilities version found/);
  });
});

describe("rego check --v0-v1 (OPA's RegoV0CompatV1: valid as both Rego v0 and v1)", () => {
  it("accepts v0 policies that import the keywords and use v1's syntax", async () => {
    const src =
      "package p\nimport future.keywords.if\nimport future.keywords.contains\n\ndeny contains x if { x := 1 }\n";
    for (const flag of ["--v0-v1", "--rego-v1"]) {
      const run = await check(src, [flag]);
      assert.equal(run.code, 0, run.stderr);
    }
  });

  it("requires `if` before a rule body", async () => {
    const run = await check("package p\n\nallow { true }\n", ["--v0-v1"]);
    assert.equal(run.code, 1);
    assert.deepEqual(lines(run), [
      "p.rego:3: rego_parse_error: `if` keyword is required before rule body",
    ]);
    assert.equal((await check("package p\n\nallow { true }\n", ["--v0-compatible"])).code, 0);
  });

  it("requires `contains` for partial sets, with or without `if`", async () => {
    for (const src of [
      "package p\nimport rego.v1\n\ndeny[x] { x := 1 }\n",
      "package p\nimport future.keywords\n\ndeny[x] if { x := 1 }\n",
    ]) {
      const run = await check(src, ["--v0-v1"]);
      assert.deepEqual(lines(run), [
        "p.rego:4: rego_parse_error: `contains` keyword is required for partial set rules",
      ]);
    }
  });

  it("without keyword imports v1's keywords are not keywords (v0 must parse it too)", async () => {
    const run = await check("package p\n\nallow if true\n", ["--v0-v1"]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /rego_parse_error/);
  });

  it("makes the compile checks of Rego v1: deprecated builtins, shadowed input", async () => {
    const deprecated = await check(
      "package p\nimport future.keywords.if\n\nallow if { any([true]) }\n",
      ["--v0-v1"],
    );
    assert.deepEqual(lines(deprecated), [
      "p.rego:4: rego_type_error: deprecated built-in function calls in expression: any",
    ]);
    assert.equal(
      (await check("package p\n\nallow { any([true]) }\n", ["--v0-compatible"])).code,
      0,
    );
    const shadow = await check("package p\n\ninput := 1\n", ["--v0-v1"]);
    assert.deepEqual(lines(shadow), [
      "p.rego:3: rego_compile_error: rules must not shadow input (use a different rule name)",
    ]);
  });

  it("holds a v0 module importing rego.v1 to v1's syntax, as OPA's parser does", async () => {
    const run = await check("package p\nimport rego.v1\n\nallow { true }\n", ["--v0-compatible"]);
    assert.deepEqual(lines(run), [
      "p.rego:4: rego_parse_error: `if` keyword is required before rule body",
    ]);
  });
});
