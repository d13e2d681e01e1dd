/**
 * Syntax read the way OPA's parser reads it: `key, value in xs` wherever an expression
 * stands, arrays versus comprehensions around `|`, and `if {` followed by one literal.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { PolicyEngine } from "../../src/engine.js";
import { engineWith, solutions } from "./helpers.js";

/** The value of data.t in a module made of `rules`. */
function doc(rules: string): unknown {
  const e = engineWith([`package t\n${rules}\n`]);
  return solutions(e, "x := data.t")[0]?.x;
}

test("key, value in xs parses in queries, after := and in comprehension bodies", () => {
  const e = engineWith([]);
  assert.deepEqual(solutions(e, "xs := [10, 20]; 1, 20 in xs"), [{ xs: [10, 20] }]);
  assert.deepEqual(solutions(e, "xs := [10, 20]; 0, 20 in xs"), []);
  assert.deepEqual(solutions(e, 'b := "a", 1 in {"a": 1}'), [{ b: true }]);
  assert.deepEqual(solutions(e, 'ks := [k | some k in ["a", "b"]; k, 1 in {"a": 1}]'), [
    { ks: ["a"] },
  ]);
  assert.deepEqual(
    solutions(e, 'ks := [k | some k in ["a", "b"]\n  k, 1 in {"a": 1}\n  true]\nx := 1'),
    [{ ks: ["a"], x: 1 }],
  );
});

test("key, value in xs parses in rule bodies over several lines and in heads", () => {
  const got = doc(
    'm := {"a": 1}\np if {\n  "a", 1 in m\n  1 in [1]\n}\nq := "a", 2 in m\nr := "a", 1 in m',
  );
  assert.deepEqual(got, { m: { a: 1 }, p: true, q: false, r: true });
});

test("an array whose | part goes on with , is an array of a union", () => {
  const base = "x := {1}\ny := {2}\n";
  const v = (rule: string) => (doc(base + rule) as { z: unknown }).z;
  assert.deepEqual(v("z := [x | y]"), [[1]]);
  assert.deepEqual(v("z := [x | y, 5]"), [[1, 2], 5]);
  assert.deepEqual(v("z := [x | y, 5 in {5}]"), []);
  assert.deepEqual(v("z := [x | y, 5 in {5}, 6]"), [[1, 2], true, 6]);
  assert.deepEqual(v("z := [x - {10} | y, 5 in {5}]"), [[1, 2], true]);
  assert.deepEqual(v("z := [(x - {10}) | y, 5 in {5}]"), []);
  assert.deepEqual(v("z := {x | y, 5}"), [5, [1, 2]]);
});

test("if followed by { 1 | 1 } is a set comprehension, { x } a body", () => {
  assert.deepEqual(doc("p if { 1 | 1 }\nq if { false }\nr if { 1 }"), { p: true, r: true });
});

test("if { x } with ... is a body and then a with that belongs to no rule, not a set that is always true", () => {
  assert.throws(
    () =>
      new PolicyEngine().addModule("with.rego", "package t\np if { input.a } with input.a as 1\n"),
    /with\.rego:2: rego_parse_error: unexpected with keyword/,
  );
  // The body alone: undefined without input.a, where the set literal would have been true.
  assert.deepEqual(doc("p if { input.a }\nq := 1"), { q: 1 });
  assert.deepEqual(doc("p if input.a with input.a as 1"), { p: true });
});

test("deeply nested sets that are re-read as literals parse without re-reading each level", () => {
  // Each level first tries a comprehension and then re-reads itself as a set: without
  // remembering the inner terms, that doubles the work per level (2^200 here).
  const depth = 200;
  const src = `${"{".repeat(depth)}{1}${" | y, 5}".repeat(depth)}`;
  const e = engineWith([`package t\ny := {2}\nz := ${src}\n`]);
  assert.equal(solutions(e, "x := data.t.z").length, 1);
});

test("layouts OPA accepts: f (x) heads, two rules on a line, chained bodies", () => {
  assert.deepEqual(doc("f (x) := x + 1\ng := f(1)"), { g: 2 });
  assert.deepEqual(doc("x := 1 y := 2"), { x: 1, y: 2 });
  assert.deepEqual(doc("q if { false } { true }"), { q: true });
});

test("v0: a body may open on a later line, and input or data may be assigned", () => {
  const e = new PolicyEngine({ v0Compatible: true });
  e.addModule(
    "v0.rego",
    "package t\np\n# a comment\n{\n  true\n}\nr[x] { x := 1 } { x := 2 }\ns = v {\n  input := 5\n  data := 2\n  v := input + data\n}\n",
  );
  assert.deepEqual(solutions(e, "x := data.t"), [{ x: { p: true, r: [1, 2], s: 7 } }]);
});

test("an import may follow rules, and binds its name for the whole module, as in OPA", () => {
  const e = engineWith([
    "package t\nbefore := y\nimport data.lib.x as y\nafter := y + 1\n",
    "package lib\nx := 5\n",
  ]);
  assert.deepEqual(solutions(e, "b := data.t.before; a := data.t.after"), [{ b: 5, a: 6 }]);
});
