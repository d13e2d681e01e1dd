import assert from "node:assert/strict";
import { test } from "node:test";
import { RegoErrorList } from "../../src/errors.js";
import { engineWith, solutions, thrown } from "./helpers.js";

function compileErrors(src: string): { code: string; message: string; row?: number }[] {
  const e = thrown(() => engineWith([src]));
  assert.ok(e instanceof RegoErrorList, `expected RegoErrorList, got ${e}`);
  return e.errors.map((x) => ({ code: x.code, message: x.message, row: x.location?.row }));
}

test("a var that nothing binds is a rego_unsafe_var_error at its expression", () => {
  const errs = compileErrors("package t\np if {\n  x > 1\n}\n");
  assert.deepEqual(errs, [{ code: "rego_unsafe_var_error", message: "var x is unsafe", row: 3 }]);
});

test("a head var the body does not bind is unsafe", () => {
  const errs = compileErrors("package t\np[x] := 1 if { true }\n");
  assert.equal(errs[0]?.code, "rego_unsafe_var_error");
  assert.equal(errs[0]?.message, "var x is unsafe");
});

test("bodies are reordered so that bindings come before their uses", () => {
  const e = engineWith(["package t\np := y if {\n  y > 1\n  y = input.n\n}\n"]);
  assert.deepEqual(solutions(e, "x = data.t.p", { inputJSON: { n: 5 } }), [{ x: 5 }]);
});

test("rules that depend on each other in a cycle are a rego_recursion_error", () => {
  const errs = compileErrors("package t\np if q\nq if p\n");
  assert.equal(errs[0]?.code, "rego_recursion_error");
  assert.match(errs[0]?.message ?? "", /data\.t\.p -> data\.t\.q -> data\.t\.p/);
});

test("declaring a var twice with := is a compile error", () => {
  const errs = compileErrors("package t\np if {\n  x := 1\n  x := 2\n}\n");
  assert.deepEqual(errs, [{ code: "rego_compile_error", message: "var x assigned above", row: 4 }]);
});

test("two default rules for one document are an error", () => {
  const errs = compileErrors("package t\ndefault p := 1\ndefault p := 2\n");
  assert.match(errs[0]?.message ?? "", /multiple default rules data\.t\.p found/);
});

test("a function and a value rule of one name conflict", () => {
  const errs = compileErrors("package t\nf(x) := x\nf := 1\n");
  assert.match(errs[0]?.message ?? "", /conflicting rules data\.t\.f found/);
});

test("calling an unknown function is a rego_type_error", () => {
  const errs = compileErrors("package t\np := nosuch(1)\n");
  assert.deepEqual(errs[0], {
    code: "rego_type_error",
    message: "undefined function nosuch",
    row: 2,
  });
});

test("a stage's errors are reported together, sorted by location; a later stage never runs", () => {
  // As OPA's compiler: undefined functions (CheckUndefinedFuncs) come before unsafe vars.
  const errs = compileErrors("package t\np if {\n  y > 1\n}\nq := nosuch(1)\nr if {\n  z < 2\n}\n");
  assert.deepEqual(
    errs.map((e) => e.row),
    [5],
  );
  const unsafe = compileErrors("package t\np if {\n  y > 1\n}\nq := 1\nr if {\n  z < 2\n}\n");
  assert.deepEqual(
    unsafe.map((e) => [e.row, e.code]),
    [
      [3, "rego_unsafe_var_error"],
      [7, "rego_unsafe_var_error"],
    ],
  );
});

test("a builtin called with an operand of a statically wrong type is a rego_type_error", () => {
  const errs = compileErrors(
    'package t\np := count(1)\nq := upper(concat(",", ["a"]))\nr if {\n  x := 2\n  upper(x)\n}\n',
  );
  assert.equal(errs.length, 2);
  assert.equal(errs[1]?.row, 6);
  assert.equal(errs[0]?.code, "rego_type_error");
  assert.match(errs[0]?.message ?? "", /^count: invalid argument\(s\)\n\thave: \(number\)/);
});

test("assigning to input or data is rejected", () => {
  const errs = compileErrors("package t\np if {\n  input := 1\n}\n");
  assert.match(errs[0]?.message ?? "", /variables must not shadow input/);
});

test("a var that only a negated expression mentions is unsafe; wildcards are fine", () => {
  const errs = compileErrors("package t\nr contains x if {\n  not input.p[x] == 0\n}\n");
  assert.deepEqual(errs, [{ code: "rego_unsafe_var_error", message: "var x is unsafe", row: 3 }]);
  const e = engineWith(["package t\nok if not input.deny[_]\n"]);
  assert.deepEqual(solutions(e, "x = data.t.ok", { inputJSON: { deny: [] } }), [{ x: true }]);
});

test("a with target that is not input, data or a function is a compile error", () => {
  const errs = compileErrors("package t\np if {\n  true with foo as 1\n}\n");
  assert.deepEqual(errs, [
    {
      code: "rego_compile_error",
      message: "with keyword target must reference existing input, data, or a function",
      row: 3,
    },
  ]);
});

test("builtin operands that are other rules are typed by those rules' values", () => {
  const cases = [
    "x := 5\nr := upper(x)",
    "x := 5 if input.a else := 6\nr := upper(x)",
    "f(a) := 5\nr := upper(f(1))",
    "s contains 1\nr := upper(s)",
    "x := 5\nr := upper(y) if { y := x }",
  ];
  for (const rules of cases) {
    const errs = compileErrors(`package t\n${rules}\n`);
    assert.equal(errs[0]?.code, "rego_type_error", rules);
    assert.match(errs[0]?.message ?? "", /^upper: invalid argument\(s\)/, rules);
  }
  // Rules whose values differ in type, and reads replaced by `with`, stay unchecked.
  const mixed = engineWith(['package t\nx := 5 if input.a\nx := "a" if input.b\nr := upper(x)\n']);
  assert.deepEqual(solutions(mixed, "v := data.t.r", { inputJSON: { b: 1 } }), [{ v: "A" }]);
  const replaced = engineWith(['package t\nx := 5\nr := v if { v := upper(x) with x as "a" }\n']);
  assert.deepEqual(solutions(replaced, "v := data.t.r"), [{ v: "A" }]);
});

test("some declares like :=: not after the var was used or assigned; := needs a var", () => {
  const cases: [string, string][] = [
    ["value = 0\n  some value in [1, 2]", "var value referenced above"],
    ["value := 0\n  some value in [1, 2]", "var value assigned above"],
    ["value := 0\n  some value", "var value assigned above"],
    ["1 := value\n  value = 1", "cannot assign to number"],
    ['"a" := value\n  value = 1', "cannot assign to string"],
  ];
  for (const [body, message] of cases) {
    const errs = compileErrors(`package t\np if {\n  ${body}\n}\n`);
    assert.deepEqual(
      errs.map((e) => [e.code, e.message]),
      [["rego_compile_error", message]],
      body,
    );
  }
  const ok = engineWith([
    'package t\nr := [x | some x in [1]; some y; y = x]\ns if { some k, v in {"a": 1}; k == "a" }\n',
  ]);
  assert.deepEqual(solutions(ok, "v := data.t"), [{ v: { r: [1], s: true } }]);
});

test("unifying terms that could never match is a rego_type_error match error", () => {
  for (const body of [
    '[x] = {"key": 1}',
    "[x, y] = [1, 2, 3]",
    '{"a": first, "b": second} = {"a": 1, "c": 2}',
    'x := 1\n  x = "a"',
    "[a, b] := [1, 2, 3]",
  ]) {
    const errs = compileErrors(`package t\np if {\n  ${body}\n}\n`);
    assert.deepEqual(
      errs.map((e) => [e.code, e.message]),
      [["rego_type_error", "match error"]],
      body,
    );
  }
  const ok = engineWith([
    'package t\np := y if {\n  [x, 1] := [2, 1]\n  {"a": y} = {"a": [x]}\n}\n',
  ]);
  assert.deepEqual(solutions(ok, "v := data.t.p"), [{ v: [2] }]);
});
