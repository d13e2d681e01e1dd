/**
 * What a query answers: OPA reports a lone term expression by its value, so `false` is an
 * answer, not undefined; with more expressions, or iteration, false values fail as usual.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { PolicyEngine } from "../../src/engine.js";
import { stringifyJSON } from "../../src/value/value.js";
import { engineWith } from "./helpers.js";

/** Each solution's expression values, as JSON. */
function answers(e: PolicyEngine, query: string): unknown[][] {
  return e
    .query(query)
    .map((r) => r.expressions.map((x) => JSON.parse(stringifyJSON(x.value)) as unknown));
}

const empty = new PolicyEngine();

test("a query of one false expression answers false", () => {
  assert.deepEqual(answers(empty, "false"), [[false]]);
  assert.deepEqual(answers(empty, "1 == 2"), [[false]]);
  assert.deepEqual(answers(empty, "1 != 1"), [[false]]);
});

test("a rule whose value is false answers false, also under with", () => {
  const e = engineWith(["package t\nx := false\ny := input.n > 2\n"]);
  assert.deepEqual(answers(e, "data.t.x"), [[false]]);
  assert.deepEqual(answers(e, "data.t.y with input.n as 1"), [[false]]);
});

test("an undefined expression, unification and negation keep their meaning", () => {
  const e = engineWith(["package t\nx := false\n"]);
  assert.deepEqual(answers(e, "data.t.missing"), []);
  assert.deepEqual(answers(empty, "1 = 2"), []);
  assert.deepEqual(answers(e, "not data.t.x"), [[true]]);
});

test("more than one expression, iteration or a nested call make false fail", () => {
  assert.deepEqual(answers(empty, "1 == 1; 1 == 2"), []);
  assert.deepEqual(answers(empty, "1 == 2; 1 == 1"), []);
  assert.deepEqual(answers(empty, "[true, false, 3][_]"), [[true], [3]]);
  assert.deepEqual(answers(empty, "count([1]) == 2"), []);
  assert.deepEqual(answers(empty, "count([1]) == 1"), [[true]]);
});
