/**
 * Bounded compile work: nested comprehensions compile in time linear in the query, long
 * chains of rules compile (dependency order and recursion checks are iterative), and a tree
 * too deep for the compiler's recursion is a rego_compile_error, never a RangeError.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Body, Term } from "../../src/ast/nodes.js";
import { Compiler } from "../../src/compile/compiler.js";
import { PolicyEngine } from "../../src/engine.js";
import { RegoErrorList } from "../../src/errors.js";
import { parseQuery } from "../../src/syntax/module-parser.js";
import { engineWith, solutions, thrown } from "./helpers.js";

/** `[x0 | x0 := [x1 | x1 := ... 1]]`, `levels` comprehensions deep. */
function nestedComprehensions(levels: number): string {
  let q = "1";
  for (let i = levels - 1; i >= 0; i--) q = `[x${i} | x${i} := ${q}]`;
  return q;
}

/** `[[...[1]...]]`, `levels` arrays deep. */
function nestedArrays(levels: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < levels; i++) v = [v];
  return v;
}

// Each level used to double the work of one compile pass: 200 levels never finished. The
// test's own timeout is only a generous backstop for that regression.
test("nested comprehensions compile and evaluate", { timeout: 120_000 }, () => {
  const e = new PolicyEngine();
  for (const levels of [20, 200]) {
    assert.deepEqual(solutions(e, `y := ${nestedComprehensions(levels)}`), [
      { y: nestedArrays(levels) },
    ]);
  }
  const sets = "{x | x := {y | y := {z | some z in [1, 2]}}}";
  assert.deepEqual(solutions(e, `s := ${sets}`), [{ s: [[[1, 2]]] }]);
});

test("with targets are still checked inside nested comprehensions and every bodies", () => {
  for (const body of [
    "x := [y | y := [z | z := 1 with foo as 2]]",
    "every v in [1] { v == 1 with foo as 2 }",
  ]) {
    const e = thrown(() => engineWith([`package t\np if {\n  ${body}\n}\n`]));
    assert.ok(e instanceof RegoErrorList, `${body}: ${e}`);
    assert.equal(e.errors[0]?.code, "rego_compile_error");
    assert.match(e.errors[0]?.message ?? "", /with keyword target must reference/);
  }
});

/** `x<n-1> = x<n-2> + 1; ...; x1 = x0 + 1; x0 = 1`: each literal needs the next one. */
function reversedUnifications(n: number): string {
  const literals = ["x0 = 1"];
  for (let i = 1; i < n; i++) literals.push(`x${i} = x${i - 1} + 1`);
  return literals.reverse().join("; ");
}

// Reordering took one pass over the remaining literals per literal ordered: 20,000 literals
// written last-first never finished. The timeout is only a backstop for that regression.
test("a long body written last-first is reordered", { timeout: 120_000 }, () => {
  const compiler = new Compiler();
  compiler.compile([]);
  const source = reversedUnifications(20_000);
  const body = compiler.compileQuery(parseQuery(source));
  const literal = (i: number) => source.slice(body[i]?.loc.start, body[i]?.loc.end);
  assert.equal(body.length, 20_000);
  assert.equal(literal(0), "x0 = 1");
  assert.equal(literal(19_999), "x19999 = x19998 + 1");
  const e = new PolicyEngine();
  assert.deepEqual(
    solutions(e, reversedUnifications(300)).map((s) => s.x299),
    [300],
  );
});

/** `r0 := 1`, `r<i> := r<i-1> + 1` up to `n`, in the order given. */
function ruleChain(n: number, lastFirst: boolean): string {
  const rules = ["r0 := 1"];
  for (let i = 1; i <= n; i++) rules.push(`r${i} := r${i - 1} + 1`);
  if (lastFirst) rules.reverse();
  return `package chain\n\n${rules.join("\n")}\n`;
}

test("a chain of 5000 rules compiles in either order", () => {
  for (const lastFirst of [false, true]) {
    const e = engineWith([ruleChain(5000, lastFirst)]);
    assert.deepEqual(solutions(e, "x := data.chain.r20"), [{ x: 21 }]);
  }
});

test("a cycle through 5000 rules is a rego_recursion_error", () => {
  const src = ruleChain(5000, true).replace("r0 := 1", "r0 := r5000 + 1");
  const e = thrown(() => engineWith([src]));
  assert.ok(e instanceof RegoErrorList, `expected RegoErrorList, got ${e}`);
  assert.equal(e.errors.length, 1);
  assert.equal(e.errors[0]?.code, "rego_recursion_error");
  const message = e.errors[0]?.message ?? "";
  assert.match(message.slice(0, 80), /^rule (data\.chain\.r\d+) is recursive: \1 -> /);
  assert.ok(message.includes(" -> data.chain.r0 -> "), "the cycle runs through r0");
});

test("a tree too deep for the compiler is a rego_compile_error with a location", () => {
  // The parser refuses such trees; this builds one directly, as another front end might.
  const loc = { file: "deep", row: 3, col: 7, start: 0, end: 0 };
  let t: Term = { type: "scalar", value: 1, loc };
  for (let i = 0; i < 200_000; i++) t = { type: "array", items: [t], loc };
  const x: Term = { type: "var", name: "x", loc };
  const op: Term = { type: "var", name: "assign", loc };
  const body: Body = [
    {
      type: "term",
      term: { type: "call", name: "assign", op, args: [x, t], loc },
      negated: false,
      with: [],
      loc,
    },
  ];
  const compiler = new Compiler();
  compiler.compile([]);
  const e = thrown(() => compiler.compileQuery(body));
  assert.ok(e instanceof RegoErrorList, `expected RegoErrorList, got ${e.name}`);
  assert.equal(e.errors[0]?.code, "rego_compile_error");
  assert.match(e.errors[0]?.message ?? "", /too deeply nested.*nesting limit/);
  assert.deepEqual(e.errors[0]?.location, { file: "deep", row: 3, col: 7 });
});
