/**
 * OPA's AST JSON, as both users get it: `rego parse` (the encoder) and `rego.parse_module`
 * (the value adapter). Each expectation is the form OPA's MarshalJSON methods write
 * (v1/ast/policy.go, term.go) for a module from ast.ParseModule.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { moduleComments } from "../syntax/module-comments.js";
import { parseModule } from "../syntax/module-parser.js";
import { DecimalNumber } from "../value/number.js";
import { toJSON } from "../value/value.js";
import { moduleToValue } from "./json.js";
import { type JsonNode, OpaAstEncoder, stringifyAst } from "./opa-json.js";

interface Rule {
  head: Record<string, unknown>;
  body: { terms: unknown }[];
}
type Json = Record<string, unknown> & { rules: [Rule, Rule] };

/** `rego.parse_module`'s value for `source`, as plain JSON data. */
function parsed(source: string): Json {
  const m = parseModule("p.rego", source);
  return toJSON(moduleToValue(m, source, moduleComments("p.rego", source))) as Json;
}

/** `rego parse --format json`'s tree for `source`. */
function encoded(source: string): Json {
  const m = parseModule("p.rego", source);
  const node = new OpaAstEncoder(source, { locations: false, comments: true }).module(m);
  return JSON.parse(stringifyAst(node as JsonNode)) as Json;
}

const both = { "rego.parse_module": parsed, "rego parse": encoded };

const ref = (...names: string[]) => ({
  type: "ref",
  value: names.map((n, i) => ({ type: i === 0 ? "var" : "string", value: n })),
});

describe("OPA AST JSON", () => {
  for (const [user, encode] of Object.entries(both)) {
    it(`${user}: a membership call's operator is the builtin's ref, split at dots`, () => {
      const out = encode("package p\nr if { 1 in [1]; k, 1 in [1] }\n");
      const [two, three] = out.rules[0].body as [{ terms: unknown[] }, { terms: unknown[] }];
      assert.deepEqual(two.terms[0], ref("internal", "member_2"));
      assert.deepEqual(three.terms[0], ref("internal", "member_3"));
    });

    it(`${user}: sets and objects are written in OPA's term order`, () => {
      const out = encode('package p\ns := {"a", 3, 1}\no := {"b": 1, "a": 2}\n');
      const [s, o] = out.rules;
      assert.deepEqual(s.head.value, {
        type: "set",
        value: [
          { type: "number", value: 1 },
          { type: "number", value: 3 },
          { type: "string", value: "a" },
        ],
      });
      const keys = (o.head.value as { value: [{ value: string }, unknown][] }).value;
      assert.deepEqual(
        keys.map(([k]) => k.value),
        ["a", "b"],
      );
    });

    it(`${user}: a template string is {parts, multi_line}, expressions indexed 0`, () => {
      const out = encode('package p\nt := $"a{1}{input.x}{""}"\nu := $`x{input.y}`\n');
      const [t, u] = out.rules;
      assert.deepEqual(t.head.value, {
        type: "templatestring",
        value: {
          parts: [
            { type: "string", value: "a" },
            { type: "number", value: 1 },
            { index: 0, terms: ref("input", "x") },
            { type: "string", value: "" },
          ],
          multi_line: false,
        },
      });
      const raw = u.head.value as { value: { multi_line: boolean; parts: unknown[] } };
      assert.equal(raw.value.multi_line, true);
      assert.deepEqual(raw.value.parts[1], { index: 0, terms: ref("input", "y") });
    });
  }

  it("rego.parse_module: `some` is {symbols}, as OPA's SomeDecl", () => {
    const out = parsed("package p\nr if { some x; x = 1 }\ns if { some v in [1] }\n");
    assert.deepEqual(out.rules[0].body[0]?.terms, { symbols: [{ type: "var", value: "x" }] });
    assert.deepEqual(out.rules[1].body[0]?.terms, {
      symbols: [
        {
          type: "call",
          value: [
            ref("internal", "member_2"),
            { type: "var", value: "v" },
            { type: "array", value: [{ type: "number", value: 1 }] },
          ],
        },
      ],
    });
  });

  it("rego.parse_module: `every` is {body, domain, key, value}, as OPA's Every", () => {
    const out = parsed("package p\nr if { every v in [1] { v } }\n");
    assert.deepEqual(out.rules[0].body[0]?.terms, {
      body: [{ index: 0, terms: { type: "var", value: "v" } }],
      domain: { type: "array", value: [{ type: "number", value: 1 }] },
      key: null,
      value: { type: "var", value: "v" },
    });
  });

  it("rego.parse_module: a head without arguments has no `args`", () => {
    const out = parsed("package p\nf() := 1\n");
    assert.equal("args" in out.rules[0].head, false);
  });

  it("rego.parse_module: no annotations (ParseModule leaves METADATA unprocessed)", () => {
    const source = "# METADATA\n# title: P\npackage p\n\n# METADATA\n# title: R\nr := 1\n";
    const out = parsed(source);
    assert.equal(out.annotations, undefined);
    assert.equal("annotations" in out.rules[0], false);
    // `rego parse` processes them, as `opa parse` does.
    assert.deepEqual(encoded(source).annotations, [{ scope: "package", title: "P" }]);
  });

  it("rego.parse_module: comments as OPA's Comment {Text (base64), Location}", () => {
    const out = parsed("package p\n# hi\nr := 1\n");
    assert.deepEqual(out.comments, [
      { Location: { col: 1, file: "p.rego", row: 2 }, Text: Buffer.from(" hi").toString("base64") },
    ]);
  });

  it("rego.parse_module: numbers keep their written value exactly", () => {
    const out = parsed("package p\nbig := 12345678901234567890\ndec := 1.50\n");
    const [big, dec] = out.rules.map((r) => (r.head.value as { value: unknown }).value);
    assert.equal(big, 12345678901234567890n);
    assert.ok(dec instanceof DecimalNumber);
    assert.equal((dec as DecimalNumber).text, "1.50");
  });
});
