/**
 * The output operand of a call: a call that is a whole expression may take one operand more
 * than its arity (the value to compare its result with); a call nested in a term may not, as
 * OPA's type checker reports.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { RegoErrorList } from "../../src/errors.js";
import { engineWith, solutions, thrown } from "./helpers.js";

function compileErrors(src: string): string[] {
  const e = thrown(() => engineWith([src]));
  assert.ok(e instanceof RegoErrorList, `expected RegoErrorList, got ${e}`);
  return e.errors.map((x) => `${x.code}: ${x.message}`);
}

test("a call nested in a rule head may not take an output operand", () => {
  assert.deepEqual(compileErrors('package t\na := units.parse("1m", "")'), [
    "rego_type_error: units.parse: too many arguments: want 1, got 2",
  ]);
});

test("a call nested in an expression may not take an output operand", () => {
  assert.deepEqual(compileErrors("package t\nf(x) := x\nb if { y := [f(1, 2)]; y }"), [
    "rego_type_error: data.t.f: too many arguments: want 1, got 2",
  ]);
});

test("a call that is a whole expression may take its output operand", () => {
  const e = engineWith([
    "package t\nf(x) := x + 1\nyes if { count([1, 2], 2); f(1, 2) }\nno if { not count([1], 5) }",
  ]);
  assert.deepEqual(solutions(e, "x := data.t"), [{ x: { no: true, yes: true } }]);
});

test("a query's nested call is checked the same way", () => {
  const e = engineWith(["package t"]);
  const err = thrown(() => e.query("x := count([1], 2)"));
  assert.ok(err instanceof RegoErrorList);
  assert.match(err.message, /count: too many arguments: want 1, got 2/);
});
