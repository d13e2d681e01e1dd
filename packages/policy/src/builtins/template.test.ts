import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { RegoObject, type Value } from "../value/value.js";
import { lookupBuiltin } from "./registry.js";
import type { BuiltinContext } from "./registry-types.js";

const ctx: BuiltinContext = { nowNs: 0n, cache: new Map(), print: () => {}, strict: true };

function render(template: Value, vars: Record<string, Value> | Value): Value | undefined {
  const def = lookupBuiltin("strings.render_template");
  assert.ok(def, "strings.render_template is registered");
  const data =
    vars !== null &&
    typeof vars === "object" &&
    !Array.isArray(vars) &&
    !(vars instanceof RegoObject)
      ? RegoObject.fromEntries(Object.entries(vars as Record<string, Value>))
      : (vars as Value);
  return def.impl([template, data], ctx);
}

describe("strings.render_template", () => {
  it("substitutes fields and prints numbers as written", () => {
    assert.equal(render("{{.test}}", { test: "hello world" }), "hello world");
    assert.equal(render("{{.test}}", { test: 2023 }), "2023");
  });

  it("ranges with index and value variables and tests truth with if", () => {
    const t = "{{range $i, $name := .hellonames}}{{if $i}},{{end}}hello {{$name}}{{end}}";
    assert.equal(render(t, { hellonames: ["rohan", "john doe"] }), "hello rohan,hello john doe");
    assert.equal(
      render("{{range .m}}{{.}},{{else}}empty{{end}}", { m: RegoObject.fromEntries([]) }),
      "empty",
    );
  });

  it("prints <undefined> for missing keys", () => {
    assert.equal(render("{{.testvarnotprovided}}", { test: "x" }), "<undefined>");
    assert.equal(
      render("test {{.foo}} {{.bar}} {{.baz}}", { baz: 1 }),
      "test <undefined> <undefined> 1",
    );
  });

  it("supports else if chains, trim markers, with, comments and variables", () => {
    const t = "{{- if eq .a 1 }} one {{- else if eq .a 2 -}} two {{ else }}other{{ end -}} !";
    assert.equal(render(t, { a: 2 }), "two !");
    assert.equal(render(t, { a: 3 }), "other!");
    const o = RegoObject.fromEntries([["k", "v"]]);
    assert.equal(render("{{with .o}}{{.k}}{{end}}{{/* note */}}{{$x := 5}}{{$x}}", { o }), "v5");
  });

  it("calls len, index, printf and comparison functions, also through pipes", () => {
    const vars = { l: ["a", "b"], n: 42, s: "str" };
    assert.equal(
      render(
        '{{len .l}} {{index .l 1}} {{printf "%05d|%s" .n .s}} {{.s | printf "%q"}} {{lt .n 50}}',
        vars,
      ),
      '2 b 00042|str "str" true',
    );
    assert.equal(
      render("{{.l}} {{.o}}", { l: ["a", 1], o: RegoObject.fromEntries([["k", [1]]]) }),
      "[a 1] map[k:[1]]",
    );
  });

  it("reports malformed templates and failed execution as builtin errors", () => {
    assert.throws(() => render("{{.a", {}), {
      name: "BuiltinError",
      message: "strings.render_template: template: template:1: unclosed action",
    });
    assert.throws(() => render("{{end}}", {}), {
      message: "strings.render_template: template: template:1: unexpected {{end}}",
    });
    assert.throws(() => render("{{if .a}}x\n\ny", {}), {
      message: "strings.render_template: template: template:3: unexpected EOF",
    });
    assert.throws(() => render("x\n{{if false}}{{nofn 1}}{{end}}", {}), {
      message: 'strings.render_template: template: template:2: function "nofn" not defined',
    });
    assert.throws(() => render("{{.a.b}}", { a: 1 }), { name: "BuiltinError" });
  });

  it("rejects operands of the wrong type", () => {
    assert.throws(() => render(1, {}), {
      name: "BuiltinTypeError",
      message: "strings.render_template: operand 1 must be string but got number",
    });
    assert.throws(() => render("x", ["a"]), {
      message: "strings.render_template: operand 2 must be object but got array",
    });
  });
});
