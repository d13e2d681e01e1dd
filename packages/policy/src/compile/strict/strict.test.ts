/**
 * The strict-mode stages on the compiler itself, with cases from OPA's compiler tests
 * (TestCompilerCheckUnusedImports, TestCompilerCheckKeywordOverrides, …): each case is
 * compiled with and without strict mode, in Rego v0 so that only strict mode adds checks.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { RegoErrorList } from "../../errors.js";
import { parseModule } from "../../syntax/module-parser.js";
import { Compiler } from "../compiler.js";
import type { CheckOptions } from "./index.js";

/** `row:col: message` of each compile error, or [] when the module compiles. */
function errors(source: string, checks: CheckOptions = {}, v0 = true): string[] {
  try {
    new Compiler(checks).compile([parseModule("m.rego", source, v0)]);
    return [];
  } catch (e) {
    if (!(e instanceof RegoErrorList)) throw e;
    return e.errors.map((x) => `${x.location?.row}:${x.location?.col}: ${x.message}`);
  }
}

/** Asserts the strict errors, and that without strict mode the module compiles. */
function strictOnly(source: string, expected: string[]): void {
  assert.deepEqual(errors(source, { strict: true }), expected);
  assert.deepEqual(errors(source), []);
}

describe("unused imports (OPA's TestCompilerCheckUnusedImports)", () => {
  test("an import only an input ref of the same name mentions is unused", () => {
    strictOnly("package p\nimport data.foo.bar as bar\nr { input.bar == 11 }", [
      "2:1: import data.foo.bar as bar unused",
    ]);
  });

  test("imports used in comparisons, calls, plain terms and every are used", () => {
    const used = [
      "package p\nimport data.foo.x\nr { x == 10 }",
      "package p\nimport data.foo\nr = count(foo) > 1",
      'package p\nimport data.foo\nr = sprintf("%v %d", [foo, 0])',
      "package p\nimport data.foo\nr { foo }",
      "package p\nimport future.keywords.every\nimport future.keywords.in\nimport data.foo\nr { every x in foo { x > 1 } }",
      "package p\nimport future.keywords.every\nimport future.keywords.in\nimport data.foo\nr { every x in [1] { x > foo } }",
      "package p\nimport future.keywords\nr { true }",
      "package p\nimport data.foo\nr = foo { true }",
    ];
    for (const src of used) assert.deepEqual(errors(src, { strict: true }), [], src);
  });

  test("a function argument or local of the import's name shadows it", () => {
    strictOnly("package p\nimport data.foo\nr { f(1) }\nf(foo) = foo == 1", [
      "2:1: import data.foo unused",
    ]);
    strictOnly("package p\nimport data.foo\nr { foo := true; foo }", [
      "2:1: import data.foo unused",
    ]);
  });
});

describe("keyword overrides (OPA's TestCompilerCheckKeywordOverrides)", () => {
  test("rule names, ref heads included", () => {
    strictOnly("package test\ninput { true }\np { true }\ndata.b := 2 { true }", [
      "2:1: rules must not shadow input (use a different rule name)",
      "4:1: rules must not shadow data (use a different rule name)",
    ]);
  });

  test("assignments in bodies, else branches and comprehensions", () => {
    strictOnly("package test\np {\n\tinput := 1\n\tx := 2\n\tx\n} else {\n\tdata := 3\n\tdata\n}", [
      "3:2: variables must not shadow input (use a different variable name)",
      "7:2: variables must not shadow data (use a different variable name)",
    ]);
    strictOnly("package test\np = [ x |\n\tinput := 1\n\tx := input\n]", [
      "3:2: variables must not shadow input (use a different variable name)",
    ]);
  });
});

describe("duplicate imports (OPA's TestCompilerCheckDuplicateImports)", () => {
  test("a later import of the same name, by path or alias", () => {
    strictOnly(
      "package test\nimport input.noconflict\nimport input.foo\nimport data.foo\nimport data.bar.foo\np := noconflict\nq := foo",
      [
        "4:1: import must not shadow import input.foo",
        "5:1: import must not shadow import input.foo",
      ],
    );
  });

  test("always in Rego v1", () => {
    assert.deepEqual(
      errors("package t\nimport data.bar as foo\nimport data.foo\np := foo", {}, false),
      ["3:1: import must not shadow import data.bar as foo"],
    );
  });
});

describe("unused locals", () => {
  test("assigned vars: each unused one of a body, in order", () => {
    strictOnly("package p\nr {\n\tx := 1\n\ty := 2\n\tz := 3\n\tz\n}", [
      "3:2: assigned var x unused",
      "4:2: assigned var y unused",
    ]);
  });

  test("a var read in the head, a with value or twice in a pattern is used", () => {
    const used = [
      "package p\nr = y { y := 1 }",
      "package p\nr { x := 1; input.a with input as x }",
      "package p\nr[k] { k := input.k }",
      "package p\nr { [a, b] := [1, 2]; a == b }",
    ];
    for (const src of used) assert.deepEqual(errors(src, { strict: true }), [], src);
  });

  test("an error inside a comprehension stops the body's own report, as in OPA", () => {
    assert.deepEqual(
      errors("package p\nr {\n\tx := 1\n\t[y | y := 1; z := 2]\n}", { strict: true }),
      ["4:15: assigned var z unused"],
    );
  });

  test("unused arguments: repeated args and args used in the head or an else branch count", () => {
    const used = [
      "package p\nf(x, x) = true",
      "package p\nf(x) = [x]",
      "package p\nf(x) = 1 { false } else = 2 { x }",
      "package p\nf([a, b]) { a == b }",
      'package p\nf(_, {"k": v}) = v',
    ];
    for (const src of used) assert.deepEqual(errors(src, { strict: true }), [], src);
    strictOnly("package p\nf(a, b) = 1", [
      "2:1: unused argument a. (hint: use _ (wildcard variable) instead)",
      "2:1: unused argument b. (hint: use _ (wildcard variable) instead)",
    ]);
  });

  test("args and locals used only inside a comprehension in the head are used", () => {
    const used = [
      "package p\nf(xs) := [y | some y in xs]",
      "package p\nf(xs) := {k: v | some k, v in xs}",
      'package p\nf(o) := {x | x := object.get(o, "a", [])[_]}',
      "package p\np := [y | y := x[_]] if { x := input.xs }",
    ];
    for (const src of used) assert.deepEqual(errors(src, { strict: true }, false), [], src);
    // A var the comprehension declares itself is another var: the argument stays unused.
    assert.deepEqual(
      errors("package p\nf(x) := [x | some x in input.xs]", { strict: true }, false),
      ["2:1: unused argument x. (hint: use _ (wildcard variable) instead)"],
    );
  });

  test("args and locals used only inside a template string in the head are used", () => {
    // open-policy-agent/regal's bundle: `policy(snippet) := regal.parse_module("p.rego", $"...{snippet}")`.
    const used = [
      'package p\nf(name) := $"hello {name}"',
      'package p\nf(s, q) := $"{s}" if q',
      'package p\nr contains $"{x}!" if { x := input.a }',
      'package p\nr[$"{k}"] := 1 if { k := input.k }',
      'package p\nf(xs) := $"{[y | some y in xs]}"',
    ];
    for (const src of used) assert.deepEqual(errors(src, { strict: true }, false), [], src);
    assert.deepEqual(errors('package p\nf(a, b) := $"{a}"', { strict: true }, false), [
      "2:1: unused argument b. (hint: use _ (wildcard variable) instead)",
    ]);
  });

  test("declared vars are reported in any mode; some-in vars never are", () => {
    assert.deepEqual(errors("package p\nr {\n\tsome x\n\tinput.a\n}"), [
      "3:2: declared var x unused",
    ]);
    assert.deepEqual(errors("package p\nimport future.keywords.in\nr { some x in input.xs }"), []);
  });

  test("a redeclaration is the resolver's error, without unused-var errors beside it", () => {
    const got = errors("package p\nr {\n\tx := 1\n\tx := 2\n}", { strict: true });
    assert.deepEqual(got, ["4:2: var x assigned above"]);
  });
});

describe("deprecated builtins (OPA's TestCompilerCheckDeprecatedMethods)", () => {
  test("calls of all, any and re_match; never a user function of that name", () => {
    strictOnly("package test\np := all([true, false])", [
      "2:6: deprecated built-in function calls in expression: all",
    ]);
    strictOnly('package test\np := re_match("[a]", "a")', [
      "2:6: deprecated built-in function calls in expression: re_match",
    ]);
    assert.deepEqual(
      errors("package test\nall(arr) = true { arr[_] }\np := all([true, false])", { strict: true }),
      [],
    );
  });

  test("reported only once every other check passes", () => {
    assert.deepEqual(errors("package test\np := any([true])\nq := x", { strict: true }), [
      "3:1: var x is unsafe",
    ]);
  });
});

describe("capabilities", () => {
  test("a builtin outside the allowed set is an undefined function", () => {
    const checks = { builtins: new Set(["count"]) };
    assert.deepEqual(errors('package p\nr := upper("a")\ns := count([])', checks), [
      "2:6: undefined function upper",
    ]);
  });
});
