import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { formatSource } from "./format.js";

const fmt = (src: string, opts = {}) => formatSource("t.rego", src, opts);

/** Lines joined with newlines, and a final newline. */
const text = (...lines: string[]) => `${lines.join("\n")}\n`;

describe("formatSource (OPA's canonical layout)", () => {
  it("indents bodies with tabs and writes `if` and `:=`", () => {
    const out = fmt("package a\nallow if {\n    input.x == 1\n    y := 2\n}\n");
    assert.equal(out, text("package a", "", "allow if {", "\tinput.x == 1", "\ty := 2", "}"));
  });

  it("keeps a one-expression body on the head's line, `if expr`", () => {
    assert.equal(fmt("package a\np if { input.x }\n"), text("package a", "", "p if input.x"));
  });

  it("writes v0 partial sets and bodies with `contains`/`if` and adds import rego.v1 (--v0-v1)", () => {
    const out = fmt("package a\np[x] { x := 1 }\nq = 2 { input.x }\n", {
      parseV0: true,
      addRegoV1Import: true,
    });
    assert.equal(
      out,
      text("package a", "", "import rego.v1", "", "p contains x if x := 1", "q := 2 if input.x"),
    );
  });

  it("drops future.keywords imports when it adds import rego.v1", () => {
    const out = fmt("package a\nimport future.keywords.in\np { 1 in [1] }\n", {
      parseV0: true,
      addRegoV1Import: true,
    });
    assert.equal(out, text("package a", "", "import rego.v1", "", "p if 1 in [1]"));
  });

  it("sorts imports within each blank-line group, keeping their trailing comments", () => {
    const out = fmt(
      "package a\nimport input.user\nimport data.roles as r # roles\nimport data.acl\n\nimport data.b\n",
    );
    assert.equal(
      out,
      text(
        "package a",
        "",
        "import data.acl",
        "import data.roles as r # roles",
        "import input.user",
        "",
        "import data.b",
      ),
    );
  });

  it("keeps comments in place: above, at the end of lines, in bodies, at the end", () => {
    const src = text(
      "# top",
      "package a # pkg",
      "",
      "# about p",
      "p if {",
      "  input.x # why",
      "  # before y",
      "  input.y",
      "}",
      "# last",
    );
    assert.equal(
      fmt(src),
      text(
        "# top",
        "package a # pkg",
        "",
        "# about p",
        "p if {",
        "\tinput.x # why",
        "",
        "\t# before y",
        "\tinput.y",
        "}",
        "",
        "# last",
      ),
    );
  });

  it("puts each source line of a multi-line collection on its own line with a trailing comma", () => {
    const out = fmt('package a\nx := [1, 2,\n  3]\ny := {"a": 1,\n "b": [1,2]}\nz := [1,2,3]\n');
    assert.equal(
      out,
      text(
        "package a",
        "",
        "x := [",
        "\t1, 2,",
        "\t3,",
        "]",
        "",
        "y := {",
        '\t"a": 1,',
        '\t"b": [1, 2],',
        "}",
        "",
        "z := [1, 2, 3]",
      ),
    );
  });

  it("parenthesises infix calls nested in infix calls", () => {
    assert.equal(fmt("package a\nx := 1 + 2 * 3\n"), text("package a", "", "x := 1 + (2 * 3)"));
    assert.equal(
      fmt("package a\np if { count(input) > 1 + 2 }\n"),
      text("package a", "", "p if count(input) > 1 + 2"),
    );
  });

  it("writes refs with .key where the key reads as a name, and keeps raw strings", () => {
    const out = fmt('package a\nx := input["foo"]["a b"][0]\ny := `raw\\s`\n');
    assert.equal(out, text("package a", "", 'x := input.foo["a b"][0]', "y := `raw\\s`"));
  });

  it("keeps adjacent one-line rules together and separates the others by a blank line", () => {
    const out = fmt("package a\nx := 1\ny := 2\n\n\n\nz := 3\np if {\n  x\n  y\n}\n");
    assert.equal(
      out,
      text("package a", "", "x := 1", "y := 2", "", "z := 3", "", "p if {", "\tx", "\ty", "}"),
    );
  });

  it("writes else after the brace, or on its own line as the source had it", () => {
    const src = text(
      "package a",
      "p := 1 if 1 > 0 else := 2",
      "q := 1 if {",
      "  1 > 0",
      "  2 > 1",
      "} else := 2 if 2 > 1",
    );
    assert.equal(
      fmt(src),
      text(
        "package a",
        "",
        "p := 1 if 1 > 0",
        "",
        "else := 2",
        "",
        "q := 1 if {",
        "\t1 > 0",
        "\t2 > 1",
        "} else := 2 if 2 > 1",
      ),
    );
  });

  it("writes comprehension bodies inline unless they start on a later line", () => {
    const out = fmt("package a\nz := [x | some x in [1]; x > 0]\nw := {x |\n some x in [1]\n}\n");
    assert.equal(
      out,
      text("package a", "", "z := [x | some x in [1]; x > 0]", "w := {x |", "\tsome x in [1]", "}"),
    );
  });

  it("keeps `with` modifiers on their lines", () => {
    const src = "package a\np if {\n  q with input as 1\n  q\n    with input as 2\n}\nq := true\n";
    assert.equal(
      fmt(src),
      text(
        "package a",
        "",
        "p if {",
        "\tq with input as 1",
        "\tq",
        "\t\twith input as 2",
        "}",
        "",
        "q := true",
      ),
    );
  });

  it("writes Rego v0 for --v0-compatible", () => {
    const out = fmt("package a\np[x] { x := 1 }\nq = 1 { input.x }\n", {
      parseV0: true,
      writeV0: true,
    });
    assert.equal(
      out,
      text("package a", "", "p[x] {", "\tx := 1", "}", "", "q = 1 {", "\tinput.x", "}"),
    );
  });

  it("is idempotent", () => {
    const src = text(
      "package a",
      "import data.x # x",
      "# c",
      "p if { # open",
      "  y := [1,",
      "    2] # two",
      '  every k, v in {"a": 1} { v > 0 }',
      "}",
    );
    const once = fmt(src);
    assert.equal(fmt(once), once);
    assert.match(once, /# open/);
    assert.match(once, /# two/);
  });

  it("refuses modules that do not parse", () => {
    assert.throws(() => fmt("package a\np { true }\n"), /`if` keyword is required/);
  });
});

describe("formatSource: constants and else", () => {
  it("writes a rule whose body is just `true` as a constant, and keeps a bare head bare", () => {
    const out = formatSource(
      "t.rego",
      "package p\n\nf3(1)\n\nf4(1) if {\n\ttrue\n}\n\nq := 2 if true\n",
    );
    assert.equal(out, "package p\n\nf3(1)\n\nf4(1) := true\n\nq := 2\n");
  });

  it("writes `else` without a value as `else if`", () => {
    const src = "package p\n\nf(x) := 1 if {\n\tx.a\n} else if {\n\tfalse\n}\n";
    assert.equal(formatSource("t.rego", src), src);
  });
});

describe("formatSource: keywords in refs", () => {
  it('keeps a quoted keyword key bracketed (package test["if"]) and writes others with a dot', () => {
    const src = 'package test["if"]\n\nx := input["not"].y\n';
    assert.equal(formatSource("t.rego", src), src);
    assert.equal(formatSource("t.rego", 'package a["b"]\n'), "package a.b\n");
  });
});

describe("formatSource: Rego v0 ref heads to v1 (--v0-v1)", () => {
  it("adds `if`, writes a bare head as `:= true` and keeps dynamic keys", () => {
    const src = [
      "package t",
      "",
      "import future.keywords.if",
      "",
      "x.y := 1 {",
      "\tinput.a",
      "}",
      "",
      "m.n.o",
      "",
      "s[k] := 2 {",
      "\tk := input.k",
      "}",
      "",
    ].join("\n");
    const out = formatSource("t.rego", src, { parseV0: true, addRegoV1Import: true });
    assert.equal(
      out,
      [
        "package t",
        "",
        "import rego.v1",
        "",
        "x.y := 1 if {",
        "\tinput.a",
        "}",
        "",
        "m.n.o := true",
        "",
        "s[k] := 2 if {",
        "\tk := input.k",
        "}",
        "",
      ].join("\n"),
    );
  });
});

describe("formatSource: membership", () => {
  it("parenthesises infix operands of `in` as OPA does, chains without parentheses", () => {
    const src = [
      "package t",
      "",
      "p if {",
      "\t(1 + 1) in [2]",
      "\t{1, 2} in [{1, 2}] in [true]",
      "\tx := 1 in [1]",
      "\t(1 in [1]) == true",
      "}",
      "",
    ].join("\n");
    assert.equal(formatSource("t.rego", src), src);
    assert.equal(
      formatSource("t.rego", "package t\n\np if 1 + 1 in [2]\n"),
      "package t\n\np if (1 + 1) in [2]\n",
    );
  });
});
