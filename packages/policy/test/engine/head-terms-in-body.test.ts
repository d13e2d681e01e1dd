/**
 * A head that needs evaluation (a ref, call or comprehension in a comprehension's head or a
 * rule's key or value) is evaluated as the last literal of the body, as OPA's stages
 * RewriteComprehensionTerms and RewriteRefsInHead arrange (`__localN__ = <head>` appended to
 * the body). So the refs of the head bind their vars for the body's safety ordering:
 * `[xs[i] | not f(xs[i])]` is safe in OPA, `i` being bound by `xs[i]` in the head.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { RegoErrorList } from "../../src/errors.js";
import { engineWith, solutions, thrown } from "./helpers.js";

const WANTED = 'wanted := [["a", "x"], ["b", "y"]]\n';

/** The value of data.t in a module made of `rules`. */
function doc(rules: string): unknown {
  const e = engineWith([`package t\n${WANTED}${rules}\n`]);
  return solutions(e, "x := data.t")[0]?.x;
}

test("a comprehension's head binds the vars a negated body literal needs", () => {
  const got = doc(
    [
      'arr := [wanted[i][1] | not contains("a", wanted[i][0])]',
      'set := {wanted[i][1] | not startswith(wanted[i][0], "b")}',
      'obj := {wanted[i][0]: upper(wanted[i][1]) | not wanted[i][0] == "a"}',
      'fixes := [{"arg": wanted[i][0], "v": sprintf("%s=%s", wanted[i])} | not contains("b", wanted[i][0])]',
    ].join("\n"),
  ) as Record<string, unknown>;
  assert.deepEqual(got.arr, ["y"]);
  assert.deepEqual(got.set, ["x"]);
  assert.deepEqual(got.obj, { b: "Y" });
  assert.deepEqual(got.fixes, [{ arg: "a", v: "a=x" }]);
});

test("each call of a moved head is a literal of its own, its operands bound by the others", () => {
  // `i` feeds format_int but is bound only by `wanted[i]` in sprintf's operand, as in OPA,
  // where RewriteExprTerms gives each call of a comprehension head its own literal.
  const got = doc(
    'fixes := [{"path": concat(".", ["p", format_int(i, 10)]), "v": sprintf("%s=%s", wanted[i])} | not contains("b", wanted[i][0])]',
  ) as Record<string, unknown>;
  assert.deepEqual(got.fixes, [{ path: "p.0", v: "a=x" }]);
});

test("a rule's key or value binds the vars a negated body literal needs", () => {
  const got = doc(
    [
      'r contains wanted[i][1] if not contains("a", wanted[i][0])',
      'f(_) := wanted[i][1] if not contains("b", wanted[i][0])',
      "v := f(0)",
    ].join("\n"),
  ) as Record<string, unknown>;
  assert.deepEqual(got.r, ["y"]);
  assert.equal(got.v, "x");
});

test("in a query, a comprehension's head binds the vars of its body", () => {
  const e = engineWith([]);
  assert.deepEqual(solutions(e, 'w := ["a", "b"]; y := [w[i] | not w[i] == "a"]'), [
    { w: ["a", "b"], y: ["b"] },
  ]);
});

test("a var no literal and no head ref binds is still unsafe", () => {
  for (const src of [
    'package t\ns := [x | not startswith(x, "a")]\n',
    'package t\nr contains x if not startswith(x, "a")\n',
  ]) {
    const err = thrown(() => engineWith([src]));
    assert.ok(err instanceof RegoErrorList, src);
    assert.deepEqual(
      err.errors.map((x) => [x.code, x.message]),
      [["rego_unsafe_var_error", "var x is unsafe"]],
      src,
    );
  }
});
