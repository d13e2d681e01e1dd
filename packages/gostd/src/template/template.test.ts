import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { GoFloat } from "../fmt/value.js";
import { executeTemplate, parseTemplate, type TemplateOptions } from "./template.js";

// Errors without Go's column and node, as most of these tests were first written for.
const SHORT: TemplateOptions = { errorContext: false };
const render = (t: string, data: object = {}, options = SHORT) =>
  executeTemplate(parseTemplate(t, options), data, options);

describe("Go text/template: control structures", () => {
  it("chooses if / else if / else branches", () => {
    const t = "{{ if eq .X 1 }}one{{ else if eq .X 2 }}two{{ else }}other{{ end }}";
    assert.equal(render(t, { X: 1 }), "one");
    assert.equal(render(t, { X: 2 }), "two");
    assert.equal(render(t, { X: 3 }), "other");
  });

  it("ranges with $i, $m, over maps in key order, over integers, with else for empty", () => {
    const t = "{{ range $i, $m := .L }}{{ $i }}={{ $m }};{{ else }}empty{{ end }}";
    assert.equal(render(t, { L: ["a", "b"] }), "0=a;1=b;");
    assert.equal(render(t, { L: [] }), "empty");
    assert.equal(render(t, {}), "empty");
    assert.equal(render(t, { L: { b: 2, a: 1 } }), "a=1;b=2;");
    assert.equal(render("{{ range $x := .L }}{{ $x }}{{ end }}", { L: ["p", "q"] }), "pq");
    assert.equal(render("{{ range 3 }}{{ . }}{{ end }}"), "012");
  });

  it("stops a range at break and skips the rest of an iteration at continue", () => {
    const t =
      "{{ range .L }}{{ if eq . 2 }}{{ continue }}{{ end }}{{ if eq . 4 }}{{ break }}{{ end }}{{ . }}{{ end }}";
    assert.equal(render(t, { L: [1, 2, 3, 4, 5] }), "13");
    assert.throws(() => render("{{ break }}"), /template: :1: \{\{break\}\} outside \{\{range\}\}/);
  });

  it("sets the dot with `with`, with else and else with", () => {
    const t = "{{ with .A }}a={{ . }}{{ else with .B }}b={{ . }}{{ else }}none{{ end }}";
    assert.equal(render(t, { A: "x" }), "a=x");
    assert.equal(render(t, { B: "y" }), "b=y");
    assert.equal(render(t, {}), "none");
    assert.equal(render("{{ with $v := .A }}{{ $v }}{{ . }}{{ end }}", { A: "z" }), "zz");
  });

  it("defines templates and calls them with template and block", () => {
    const t =
      '{{ define "T" }}[{{ . }}]{{ end }}{{ template "T" .X }}{{ block "B" "y" }}<{{ . }}>{{ end }}';
    assert.equal(render(t, { X: "x" }), "[x]<y>");
    assert.throws(() => render('{{ template "nope" }}'), /no such template "nope"/);
  });

  it("declares variables, assigns across blocks, and scopes declarations to their block", () => {
    assert.equal(render("{{ $x := 1 }}{{ if true }}{{ $x = 2 }}{{ end }}{{ $x }}"), "2");
    assert.equal(render("{{ $x := 1 }}{{ if true }}{{ $x := 3 }}{{ $x }}{{ end }}{{ $x }}"), "31");
    assert.equal(render("{{ $.A }}{{ range .L }}{{ $.A }}{{ end }}", { A: "a", L: [1, 2] }), "aaa");
    assert.throws(
      () => render("{{ if true }}{{ $y := 1 }}{{ end }}{{ $y }}"),
      /undefined variable "\$y"/,
    );
  });

  it("trims white space at {{- and -}}, and drops comments", () => {
    assert.equal(render("a  \n {{- /* c */ -}} \n b"), "ab");
    assert.equal(render("{{/* comment */}}x{{- /* another */}} y"), "x y");
    assert.equal(render("a {{- 1 }} {{ 2 -}} b"), "a1 2b");
    assert.equal(render("{{ 3 -}}\n\n{{- 4 }}"), "34");
  });

  it("passes a pipeline's value as the last argument of the next command", () => {
    assert.equal(render('{{ "abc" | len }}'), "3");
    assert.equal(render('{{ .X | printf "%s-%s" "a" }}', { X: "x" }), "a-x");
    assert.equal(render('{{ (index .L 1) | print "v" }}', { L: [1, 2] }), "v2");
    assert.throws(
      () => render("{{ .X | 1 }}", { X: 1 }),
      /non executable command in pipeline stage 2/,
    );
  });
});

describe("Go text/template: functions", () => {
  it("compares with eq (several operands), ne, lt, le, gt, ge, not", () => {
    assert.equal(render('{{ eq .R "a" "b" "c" }}', { R: "c" }), "true");
    assert.equal(render('{{ eq .R "a" "b" }}', { R: "c" }), "false");
    assert.equal(
      render('{{ lt 1 2 }} {{ le 2 2 }} {{ gt "b" "a" }} {{ ge 1 2 }} {{ ne 1 2 }} {{ not 0 }}'),
      "true true true false true true",
    );
    assert.equal(render('{{ eq .Missing "x" }}'), "false");
    assert.throws(
      () => render('{{ lt 1 "a" }}'),
      /error calling lt: incompatible types for comparison/,
    );
  });

  it("returns the deciding operand from and/or, without evaluating the rest", () => {
    assert.equal(render('{{ or .Empty "fallback" }}', { Empty: "" }), "fallback");
    assert.equal(render('{{ and "x" "" "y" }}|{{ and 1 2 }}'), "|2");
    assert.equal(render("{{ or 1 (index .L 99) }}", { L: [] }), "1");
    assert.equal(render("{{ and 0 (index .L 99) }}", { L: [] }), "0");
  });

  it("measures, indexes and slices strings, lists and maps", () => {
    const data = { L: [1, 2, 3, 4], M: { k: "v" } };
    assert.equal(
      render(
        '{{ len .L }} {{ index .L 1 }} {{ slice .L 1 3 }} {{ index .M "k" }} {{ slice "hello" 1 3 }}',
        data,
      ),
      "4 2 [2 3] v el",
    );
    assert.equal(render('{{ index .M "nope" }}', data), "<no value>");
    assert.equal(render('{{ len "héllo" }}'), "6");
    assert.throws(
      () => render("{{ index .L 9 }}", data),
      /error calling index: index out of range: 9/,
    );
  });

  it("prints as fmt does: print, printf, println", () => {
    assert.equal(render('{{ print 1 2 "a" 3 }}'), "1 2a3");
    assert.equal(
      render('{{ printf "%d|%5.2f|%q|%v|%x|%-4s|%03d" 42 3.14159 "hi" .L 255 "ab" 7 }}', {
        L: [1, 2],
      }),
      '42| 3.14|"hi"|[1 2]|ff|ab  |007',
    );
    assert.equal(render('{{ println "a" 1 }}'), "a 1\n");
    assert.equal(
      render('{{ printf "%v %g %.3g %.3g %e %.1f" .F .F .G .H .G 2.25 }}', {
        F: new GoFloat(1e6),
        G: new GoFloat(1234.5678),
        H: new GoFloat(0.5),
      }),
      "1e+06 1e+06 1.23e+03 0.5 1.234568e+03 2.2",
    );
    assert.equal(render('{{ printf "%d %s" "x" }}'), "%!d(string=x) %!s(MISSING)");
  });

  it("escapes for HTML, JavaScript and URL queries", () => {
    assert.equal(
      render(`{{ html "<a href='x'>&</a>" }}`),
      "&lt;a href=&#39;x&#39;&gt;&amp;&lt;/a&gt;",
    );
    assert.equal(render(`{{ js "it's <b>\\"q\\"" }}`), `it\\'s \\u003Cb\\u003E\\"q\\"`);
    assert.equal(render('{{ urlquery "a b&c=d/é" }}'), "a+b%26c%3Dd%2F%C3%A9");
  });

  it("refuses unknown functions at parse time, naming the line", () => {
    assert.throws(
      () => render("a\nb\n{{ upper .X }}"),
      /template: :3: function "upper" not defined/,
    );
  });
});

describe("Go text/template: printing values as Go does", () => {
  it("prints maps, slices, nil, missing keys and floats", () => {
    assert.equal(render("{{ .M }}", { M: { b: 1, a: "x" } }), "map[a:x b:1]");
    assert.equal(render("{{ .L }}", { L: [1, "a", [2, 3]] }), "[1 a [2 3]]");
    assert.equal(render("{{ .Missing }}"), "<no value>");
    assert.equal(render("{{ print .Missing }}|{{ print nil }}"), "<nil>|<nil>");
    assert.equal(
      render("{{ .F }} {{ .G }} {{ 1.5 }} {{ 1e6 }}", {
        F: new GoFloat(1_000_000),
        G: new GoFloat(0.25),
      }),
      "1e+06 0.25 1.5 1e+06",
    );
  });

  it("fails on a field of a missing value, as Go's nil pointer error", () => {
    assert.throws(
      () => render("{{ .A.B }}"),
      /template: :1: executing "": nil pointer evaluating interface \{\}.B/,
    );
  });
});
