/**
 * Data/policy path conflicts: a rule may not define a document that base data holds, nor one
 * below a base value that is not an object (OPA's `conflicting rule for data path ... found`).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { PolicyEngine } from "../../src/engine.js";
import { RegoErrorList } from "../../src/errors.js";
import { engineWith, solutions, thrown } from "./helpers.js";

function conflictMessages(f: () => unknown): string[] {
  const e = thrown(f);
  assert.ok(e instanceof RegoErrorList, `expected RegoErrorList, got ${e}`);
  return e.errors.map((x) => `${x.code}: ${x.message}`);
}

test("a rule at a path that base data holds is a compile error", () => {
  const messages = conflictMessages(() =>
    engineWith(["package t\nrule1 := 6"], { t: { rule1: 0 } }),
  );
  assert.deepEqual(messages, ["rego_compile_error: conflicting rule for data path t/rule1 found"]);
});

test("a rule below a base value that is not an object conflicts too", () => {
  const messages = conflictMessages(() =>
    engineWith(["package t.s\np contains 1"], { t: { s: "scalar" } }),
  );
  assert.deepEqual(messages, ["rego_compile_error: conflicting rule for data path t/s/p found"]);
});

test("rules beside base data, or below a base object, do not conflict", () => {
  // Rego v0: v1 refuses a rule named `data` ("rules must not shadow data"), as OPA does.
  const e = new PolicyEngine({ v0Compatible: true });
  e.addModule("test-0.rego", "package t\nr := 1\ns.u := 2\ndata.t.rule1 := 9");
  e.addData([], { t: { rule1: 8, s: { v: 3 } } });
  e.compile();
  assert.deepEqual(solutions(e, "x := data.t"), [
    { x: { data: { t: { rule1: 9 } }, r: 1, rule1: 8, s: { u: 2, v: 3 } } },
  ]);
});

test("data added after compiling may not take a rule's path, and is then not stored", () => {
  const e = engineWith(["package t\np := 1"]);
  const messages = conflictMessages(() => e.addData(["t"], { p: 2 }));
  assert.deepEqual(messages, ["rego_compile_error: conflicting rule for data path t/p found"]);
  assert.deepEqual(solutions(e, "x := data.t.p"), [{ x: 1 }]);
});

test("the check can be turned off, as OPA's topdown harness runs", () => {
  const e = new PolicyEngine({ checkDataConflicts: false });
  e.addModule("a.rego", "package t\nk := 1");
  e.addData([], { t: { k: "base" } });
  e.compile();
  assert.deepEqual(solutions(e, "x := data.t.k"), [{ x: "base" }]);
});
