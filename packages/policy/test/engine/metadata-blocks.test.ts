/**
 * METADATA comment blocks read as OPA's parser reads them: which comments make up a block,
 * which statement it belongs to, and where and how a bad block is reported. The cases follow
 * OPA's behaviour (v1/ast/parser.go `parseAnnotations`, annotations.go scope attachment).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Module } from "../../src/ast/nodes.js";
import { parseModule } from "../../src/syntax/module-parser.js";
import { engineWith, solutions } from "./helpers.js";

/** The value of data.t for one module. */
function doc(source: string): Record<string, unknown> {
  return solutions(engineWith([source]), "x := data.t")[0]?.x as Record<string, unknown>;
}

/** `row:col message` of each parse error of `source` (file test.rego). */
function parseErrors(source: string): string[] {
  try {
    parseModule("test.rego", source);
  } catch (e) {
    const list = (e as { errors?: { code: string; message: string; location?: Loc }[] }).errors;
    assert.ok(list, `expected a list of errors, got ${String(e)}`);
    return list.map((x) => {
      assert.equal(x.code, "rego_parse_error");
      return `${x.location?.row}:${x.location?.col} ${x.message}`;
    });
  }
  assert.fail("expected a parse error");
}
type Loc = { row: number; col: number };

function ruleTitles(m: Module): [number, unknown[]][] {
  return m.rules.map((r) => [r.loc.row, (r.annotations ?? []).map((a) => a.fields.title)]);
}

test("a comment after code on the row below a block is not part of the block", () => {
  const got = doc(
    "package t\n\n# METADATA\n# title: r\nr := rego.metadata.rule() # note\n\nq := rego.metadata.rule()\n",
  );
  assert.deepEqual(got, { r: { scope: "rule", title: "r" }, q: {} });
});

test("a block above `r := 1 # note` parses and attaches to r", () => {
  const m = parseModule("test.rego", "package t\n# METADATA\n# title: r\nr := 1 # note\ns := 2\n");
  assert.deepEqual(ruleTitles(m), [
    [4, ["r"]],
    [5, []],
  ]);
});

test("a block ends at a comment that does not start at column 1", () => {
  const m = parseModule(
    "test.rego",
    "package t\n# METADATA\n# title: p\n  # description: not in the block\np := 1\n",
  );
  assert.deepEqual(m.rules[0]?.annotations?.[0]?.fields, { title: "p" });
});

test("an indented METADATA block has no lines, which OPA reports at its header", () => {
  assert.deepEqual(parseErrors("package t\np if {\n  # METADATA\n  # title: x\n  true\n}\n"), [
    "3:3 expected METADATA block, found whitespace",
  ]);
  assert.deepEqual(
    parseErrors("package test\n\n# METADATA\n\n# scope: rule\np if { input.x > 7 }"),
    ["3:1 expected METADATA block, found whitespace"],
  );
});

test("any comment that begins with METADATA starts a block", () => {
  const m = parseModule(
    "test.rego",
    "package t\n#METADATA\n# title: a\na := 1\n# METADATA (rule b)\n# title: b\nb := 1\n",
  );
  assert.deepEqual(ruleTitles(m), [
    [4, ["a"]],
    [7, ["b"]],
  ]);
});

test("a METADATA comment after code starts a block for the statement below", () => {
  const m = parseModule("test.rego", "package t\na := 1 # METADATA\n# title: b\nb := 1\n");
  assert.deepEqual(ruleTitles(m), [
    [2, []],
    [4, ["b"]],
  ]);
});

test("a block belongs to the statement below its METADATA line, blank rows and comments between", () => {
  const m = parseModule(
    "test.rego",
    "package t\n\n# METADATA\n# title: p\n\n# an ordinary comment\np := 1\n",
  );
  assert.deepEqual(ruleTitles(m), [[7, ["p"]]]);
});

test("a YAML error is reported at the block's row with OPA's wording", () => {
  assert.deepEqual(
    parseErrors(
      "package t\n\n# METADATA\n# title: x\n# description: a: b\n# scope: rule\np := 1\n",
    ),
    ["5:1 yaml: line 2: mapping values are not allowed in this context"],
  );
  // OPA issue 6587: an error on the block's first line is at that line, not row 1.
  assert.deepEqual(
    parseErrors("# METADATA\n# description: `foo` bars\n# title: foo\npackage foo"),
    ["2:1 yaml: found character that cannot start any token"],
  );
  assert.deepEqual(parseErrors("# METADATA\n# title: foo\vbar\npackage t\n"), [
    "2:1 yaml: control characters are not allowed",
  ]);
});

test("a second METADATA line joins the block above it, as in OPA", () => {
  const source =
    "\npackage opa.examples\n\nimport data.servers\nimport data.networks\nimport data.ports\n\n" +
    "# METADATA\n# scope: rule\n# schemas:\n#   - data.servers: schema.servers\n" +
    "#   - data.networks: schema.networks\n#   - data.ports: schema.ports\n# METADATA\n" +
    "public_servers contains server if {\n\tserver = servers[i]\n}";
  assert.deepEqual(parseErrors(source), ["14:1 yaml: line 6: could not find expected ':'"]);
});

test("a block that is not a mapping fails as OPA's decoder does, with the separator hint", () => {
  assert.deepEqual(
    parseErrors("package opa.examples\n\n# METADATA\n# description:p is true\np := true\n"),
    [
      "4:1 yaml: unmarshal errors:\n  line 1: cannot unmarshal !!str `descrip...` into ast.rawAnnotation\n" +
        "  Hint: on line 4, symbol(s) ['p'] immediately following a key/value separator ':' is not a legal yaml space character",
    ],
  );
});

test("every block with a YAML error is reported", () => {
  assert.deepEqual(
    parseErrors("package t\n# METADATA\n# a: b: c\np := 1\n# METADATA\n# title: [x\nq := 1\n")
      .length,
    2,
  );
});

test("a scope that does not fit the statement below is OPA's parse error", () => {
  assert.deepEqual(
    parseErrors(
      'package test\n\n# METADATA\n# title: My import\nimport input.foo\n\np if { input = "str" }',
    ),
    [
      "3:1 invalid annotation scope 'import'. Use one of 'rule', 'document', 'package', or 'subpackages'",
    ],
  );
  assert.deepEqual(parseErrors("\n# METADATA\n# scope: rule\npackage test\n\np := 7"), [
    "2:1 annotation scope 'rule' must be applied to rule (have package)",
  ]);
  assert.deepEqual(
    parseErrors("package test\n# METADATA\n# scope: document\nimport data.foo.bar"),
    ["2:1 annotation scope 'document' must be applied to rule (have import)"],
  );
  assert.deepEqual(parseErrors("package test\n\n# METADATA\n# scope: package"), [
    "3:1 annotation scope 'package' must be applied to package",
  ]);
  assert.deepEqual(parseErrors("package test\n\n# METADATA\n# scope: deadbeef\np := 7"), [
    "3:1 invalid annotation scope 'deadbeef'. Use one of 'rule', 'document', 'package', or 'subpackages'",
  ]);
});

test("entrypoint without a scope makes a rule's block document-scoped", () => {
  const m = parseModule("test.rego", "package t\n# METADATA\n# entrypoint: true\np := 1\n");
  assert.equal(m.rules[0]?.annotations?.[0]?.scope, "document");
  assert.deepEqual(
    parseErrors("package t\n# METADATA\n# scope: rule\n# entrypoint: true\np := 1\n"),
    ["2:1 annotation entrypoint applied to non-document or package scope 'rule'"],
  );
});

test("with several rule blocks, rule() is the nearest and chain() lists them nearest first", () => {
  const got = doc(
    "package t\n# METADATA\n# title: far\n\n# METADATA\n# title: near\np := [rego.metadata.rule(), rego.metadata.chain()]\n",
  );
  assert.deepEqual(got.p, [
    { scope: "rule", title: "near" },
    [
      { annotations: { scope: "rule", title: "near" }, path: ["t", "p"] },
      { annotations: { scope: "rule", title: "far" }, path: ["t", "p"] },
    ],
  ]);
});
