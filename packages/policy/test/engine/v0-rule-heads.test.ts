/**
 * Rego v0 rule heads (`--v0-compatible`): `p[k] { ... }` without a value is a partial set
 * whatever the key term is, `p[k] = v { ... }` a partial object; v1 keeps ref-head rules.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { PolicyEngine } from "../../src/engine.js";
import { parseModule } from "../../src/syntax/module-parser.js";
import { fromJSON, stringifyJSON } from "../../src/value/value.js";
import { headsPackage } from "./helpers.js";

/** data.heads as plain JSON, from modules parsed as v0 (or v1 when `v0` is false). */
const packageValue = (source: string, v0 = true) => headsPackage(source, v0);

test('v0 reads p["foo"] { true } as a partial set containing "foo"', () => {
  const m = parseModule("v0.rego", 'package heads\np["foo"] { true }\n', true);
  const rule = m.rules[0];
  assert.equal(rule?.kind, "multi");
  assert.equal(rule?.ref.length, 1);
  assert.deepEqual(rule?.key?.type === "scalar" ? rule.key.value : undefined, "foo");
  assert.deepEqual(packageValue('package heads\np["foo"] { true }\n'), { p: ["foo"] });
});

test("v0 partial set members from string, dotted, bodiless and variable heads merge", () => {
  const source = [
    "package heads",
    'p["foo"] { true }',
    'p["bar"]',
    "p.baz { true }",
    "p[x] { x := 7 }",
    'p["never"] { false }',
  ].join("\n");
  assert.deepEqual(packageValue(source), { p: [7, "bar", "baz", "foo"] });
});

test('v0 reads p["a"] = 1 { true } as a partial object', () => {
  const source = 'package heads\np["a"] = 1 { true }\np["b"] = 2\np[k] = 3 { k := "c" }\n';
  assert.deepEqual(packageValue(source), { p: { a: 1, b: 2, c: 3 } });
});

test("v0 keeps longer heads without a value as single-value rules with value true", () => {
  assert.deepEqual(packageValue("package heads\np.q[x] { x := 1 }\n"), { p: { q: { "1": true } } });
});

test('v0 with the if keyword imported reads p["foo"] if { ... } as a ref head', () => {
  const source = 'package heads\nimport future.keywords.if\np["foo"] if { true }\n';
  assert.deepEqual(packageValue(source), { p: { foo: true } });
});

test('v1 reads p["foo"] if { ... } as a ref head rule, not a set', () => {
  assert.deepEqual(packageValue('package heads\np["foo"] if { true }\n', false), {
    p: { foo: true },
  });
});

test("a v0 partial set member whose body fails on the input is left out", () => {
  const e = new PolicyEngine({ v0Compatible: true });
  e.addModule("heads.rego", 'package heads\np["admin"] { input.admin }\np["user"] { true }\n');
  e.compile();
  const members = (input: unknown): unknown => {
    const v = e.evalRef(["heads", "p"], { input: fromJSON(input) });
    return v === undefined ? undefined : JSON.parse(stringifyJSON(v));
  };
  assert.deepEqual(members({ admin: true }), ["admin", "user"]);
  assert.deepEqual(members({ admin: false }), ["user"]);
});
