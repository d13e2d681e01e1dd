/**
 * Documents as OPA computes them: a head value that is undefined falls through to `else`,
 * import aliases of `input` and `data` are values, functions of no operands are documents.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { RegoErrorList } from "../../src/errors.js";
import { engineWith, solutions, thrown } from "./helpers.js";

/** The value of `ref` in modules `srcs`, with optional input. */
function value(srcs: string[], ref: string, input?: unknown): unknown {
  const e = engineWith(srcs);
  return solutions(e, `x := ${ref}`, { inputJSON: input })[0]?.x;
}

test("a rule whose head value is undefined falls through to its else", () => {
  const src = [
    "package t",
    'x := input.missing if true else := "fallback"',
    "y := input.missing if false else := input.none else := 3",
    "f(a) := input.m[a] if true else := 2",
    "z := input.n if true else := 0",
  ].join("\n");
  assert.deepEqual(value([src], "data.t", { n: 1 }), { x: "fallback", y: 3, z: 1 });
  assert.equal(value([src], "data.t.f(1)", {}), 2);
});

test("import input as x and import data as d are values", () => {
  const src = [
    "package t",
    "import input as x",
    "import input.a as b",
    "import data as d",
    "y := x.a",
    "z := b",
    "w := x",
    "v := k if { k := x.a with x.a as 7 }",
    "u := d.q.r",
  ].join("\n");
  const got = value([src, "package q\nr := 5\n"], "data.t", { a: 1 });
  assert.deepEqual(got, { y: 1, z: 1, w: { a: 1 }, v: 7, u: 5 });
});

test("import data.pkg as alias reaches the package's rules and functions", () => {
  const lib = "package lib\nvalue := 1\ndouble(n) := 2 * n\n";
  const src = "package t\nimport data.lib as l\ny := l.value\nz := l.double(21)\n";
  assert.deepEqual(value([lib, src], "data.t"), { y: 1, z: 42 });
});

test("a function of no operands is a document: data.t.f answers f()", () => {
  const src = "package t\nf() := 3\ng := f()\nh := f\nk(n) := n\n";
  assert.equal(value([src], "data.t.f"), 3);
  assert.deepEqual(value([src], "data.t"), { f: 3, g: 3, h: 3 });
  const fromInput = "package t\nf() := v if { v := input.v }\n";
  assert.equal(value([fromInput], "data.t.f", { v: 2 }), 2);
  assert.equal(value([fromInput], "data.t.f", {}), undefined);
});

test("default rules with a non-string key apply to that key of the object", () => {
  const src = [
    "package t",
    "default a[1] := 5",
    "a[2] := 3",
    "a[1] := 7 if input.x",
    'default complex[true] := "t"',
    'default complex[false] := "f"',
    'complex["hello"] := "world"',
  ].join("\n");
  const e = engineWith([src]);
  const one = (q: string, input: unknown) => solutions(e, `v := ${q}`, { inputJSON: input })[0]?.v;
  assert.equal(one("data.t.a[1]", {}), 5);
  assert.equal(one("data.t.a[1]", { x: true }), 7);
  assert.equal(one("data.t.a[2]", {}), 3);
  assert.equal(one("data.t.complex[true]", {}), "t");
  assert.equal(one("data.t.complex[false]", {}), "f");
  assert.equal(one("count(data.t.complex)", {}), 3);
});

test("default rule values may not contain vars, refs or calls", () => {
  for (const value of ["x", "[{x}]", '{"b": 5}.b', "incr(5)", "(5 + 6)", "5 in {5}"]) {
    const e = thrown(() => engineWith([`package t\ndefault a := ${value}\n`]));
    assert.ok(e instanceof RegoErrorList, value);
    assert.equal(e.errors[0]?.code, "rego_parse_error", value);
    assert.match(e.errors[0]?.message ?? "", /illegal default rule/, value);
  }
  assert.equal(value(["package t\ndefault a := [1, {2}, -3]\n"], "data.t.a[2]"), -3);
});

test("without input, input = 7 is undefined: input is never a var to bind", () => {
  const src = "package t\nq := x if { input = 7; x = input }\nr if { [input] = [1] }\n";
  assert.deepEqual(value([src], "data.t"), {});
  assert.deepEqual(value([src], "data.t", 7), { q: 7 });
});
