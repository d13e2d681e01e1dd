import assert from "node:assert/strict";
import { test } from "node:test";
import { PolicyEngine } from "../../src/engine.js";
import { RegoErrorList } from "../../src/errors.js";
import { parseModule, parseQuery } from "../../src/syntax/module-parser.js";
import { thrown } from "./helpers.js";

test("a parse error names file, line and column with rego_parse_error", () => {
  const e = thrown(() => parseModule("policy.rego", "package a\n\np := [1,\n"));
  assert.ok(e instanceof RegoErrorList);
  const first = e.errors[0];
  assert.equal(first?.code, "rego_parse_error");
  assert.deepEqual(first?.location, { file: "policy.rego", row: 4, col: 1 });
  assert.match(String(first), /^policy\.rego:4: rego_parse_error: unexpected eof token/);
});

test("a module without a package is rejected", () => {
  const e = thrown(() => new PolicyEngine().addModule("x.rego", "p := 1\n"));
  assert.ok(e instanceof RegoErrorList);
  assert.match(e.message, /x\.rego:1: rego_parse_error: package expected/);
});

test("an illegal character is reported at its column", () => {
  const e = thrown(() => parseModule("y.rego", "package a\np := 1 ^ 2\n"));
  assert.ok(e instanceof RegoErrorList);
  assert.equal(e.errors[0]?.location?.row, 2);
  assert.equal(e.errors[0]?.location?.col, 8);
});

test("rules of every kind parse with their heads", () => {
  const m = parseModule(
    "k.rego",
    `package k
default allow := false
allow if input.x == 1
s contains v if some v in [1, 2]
o[k] := v if { some k, v in {"a": 1} }
a.b[c].d := 1 if c := "x"
f(x) := x + 1
g(x) := "big" if { x > 10 } else := "small"
`,
  );
  assert.deepEqual(
    m.rules.map((r) => [r.kind, r.isDefault, r.ref.length, Boolean(r.elseRule)]),
    [
      ["single", true, 1, false],
      ["single", false, 1, false],
      ["multi", false, 1, false],
      ["single", false, 2, false],
      ["single", false, 4, false],
      ["func", false, 1, false],
      ["func", false, 1, true],
    ],
  );
});

test("v0 syntax reads p[x] { ... } as a partial set", () => {
  const m = parseModule("v0.rego", "package v\np[x] { x := 1 }\nq { true }\n", true);
  assert.equal(m.rules[0]?.kind, "multi");
  assert.equal(m.rules[1]?.kind, "single");
});

test("v1 requires a newline or semicolon between literals", () => {
  const e = thrown(() => parseQuery("x := 1 y := 2"));
  assert.ok(e instanceof RegoErrorList);
  assert.match(e.message, /rego_parse_error: unexpected ident y/);
});

test("template strings keep their literal pieces and embedded expressions", () => {
  const body = parseQuery('x := $"a {1 + 2} \\{b}"');
  const term = body[0]?.type === "term" ? body[0].term : undefined;
  assert.ok(term?.type === "call");
  const tpl = term.args[1];
  assert.ok(tpl?.type === "template");
  assert.equal(tpl.parts.length, 3);
  assert.deepEqual([tpl.parts[0], tpl.parts[2]], ["a ", " {b}"]);
});

test("Rego v1 requires `if` before a rule body", () => {
  const e = thrown(() => parseModule("r.rego", "package a\nallow { true }\n"));
  assert.ok(e instanceof RegoErrorList);
  assert.match(e.message, /r\.rego:2: rego_parse_error: `if` keyword is required before rule body/);
});

test("inside brackets an expression may continue on the next line", () => {
  const body = parseQuery("x := (1\n  + 2)\ny := [\n  3,\n  4 |\n  5\n]");
  assert.equal(body.length, 2);
  const body2 = parseQuery("xs := [a |\n  some a in [1, 2]\n  a > 1\n]");
  const t = body2[0]?.type === "term" ? body2[0].term : undefined;
  assert.ok(t?.type === "call" && t.args[1]?.type === "arraycompr");
  assert.equal(t.args[1].body.length, 2);
});

test("absurdly deep nesting is a parse error, not a crash", () => {
  const deep = `package d\np := ${"[".repeat(20000)}${"]".repeat(20000)}\n`;
  const e = thrown(() => parseModule("deep.rego", deep));
  assert.ok(e instanceof RegoErrorList);
  assert.equal(e.errors[0]?.code, "rego_parse_error");
});
