import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { RegoObject, type Value } from "../value/value.js";
import { lookupBuiltin } from "./registry.js";
import { testContext } from "./testing/call-builtin.js";

const ctx = testContext();

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

  it("stops or skips range iterations with break and continue", () => {
    const t =
      '{{range .l}}{{if eq . "b"}}{{continue}}{{end}}{{if eq . "d"}}{{break}}{{end}}{{.}}{{end}}';
    assert.equal(render(t, { l: ["a", "b", "c", "d", "e"] }), "ac");
    assert.throws(() => render("{{break}}", {}), {
      message: "strings.render_template: template: template:1: {{break}} outside {{range}}",
    });
  });

  it("prints <undefined> for missing keys", () => {
    assert.equal(render("{{.testvarnotprovided}}", { test: "x" }), "<undefined>");
    assert.equal(
      render("test {{.foo}} {{.bar}} {{.baz}}", { baz: 1 }),
      "test <undefined> <undefined> 1",
    );
  });

  it("supports else if chains, trim markers, with, comments and variables", () => {
    const t = '{{- if eq .a "x" }} one {{- else if eq .a "y" -}} two {{ else }}other{{ end -}} !';
    assert.equal(render(t, { a: "y" }), "two !");
    assert.equal(render(t, { a: "z" }), "other!");
    const o = RegoObject.fromEntries([["k", "v"]]);
    assert.equal(
      render("{{with .o}}{{.k}}{{end}}{{/* note */}}{{$x := 5}}{{$x = 6}}{{$x}}", { o }),
      "v6",
    );
  });

  it("calls len, index, printf and comparison functions, also through pipes", () => {
    const vars = { l: ["a", "b"], n: 42, s: "str" };
    assert.equal(
      render(
        '{{len .l}} {{index .l 1}} {{printf "%05d|%s" 42 .s}} {{.s | printf "%q"}} {{lt 1 2}} {{print 1 2 .s}}',
        vars,
      ),
      '2 b 00042|str "str" true 1 2str',
    );
    assert.equal(
      render("{{.l}} {{.o}}", { l: ["a", 1], o: RegoObject.fromEntries([["k", [1]]]) }),
      "[a 1] map[k:[1]]",
    );
  });

  it("treats numbers from the variables as Go's json.Number, a string type", () => {
    const vars = { n: 42, z: 0 };
    assert.equal(
      render('{{printf "%d" .n}} {{if .z}}zero is true{{end}} {{eq .n "42"}} {{len .n}}', vars),
      "%!d(json.Number=42) zero is true true 2",
    );
    assert.throws(() => render("{{if eq .z 0}}x{{end}}", vars), {
      name: "BuiltinError",
      message:
        'strings.render_template: template: template:1:5: executing "template" at <eq .z 0>: error calling eq: incompatible types for comparison',
    });
    assert.equal(render("{{.nul}} {{.l}}", { nul: null, l: [null] }), "<undefined> [<nil>]");
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
    assert.throws(() => render("{{.a.b}}", { a: 1 }), {
      name: "BuiltinError",
      message:
        'strings.render_template: template: template:1:2: executing "template" at <.a.b>: can\'t evaluate field b in type interface {}',
    });
    assert.throws(() => render("{{index .l 5}}", { l: [] }), {
      message:
        'strings.render_template: template: template:1:2: executing "template" at <index .l 5>: error calling index: index out of range: 5',
    });
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
