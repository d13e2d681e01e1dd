/**
 * Layout cases taken from OPA's printer (v1/format/format.go and its test files): comments
 * inside collections, unions in parentheses, call arguments, object comprehensions and
 * METADATA headers.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { SourceMap } from "../syntax/lexer.js";
import { CommentQueue, isMetadataHeader, readComments } from "./comments.js";
import { formatSource } from "./format.js";
import { Writer } from "./writer.js";

const fmt = (src: string) => formatSource("t.rego", src);

/** Lines joined with newlines, and a final newline. */
const text = (...lines: string[]) => `${lines.join("\n")}\n`;

/** Formats `src` and checks that formatting the result changes nothing more. */
function fmtStable(src: string): string {
  const once = fmt(src);
  assert.equal(fmt(once), once, "formatting is not idempotent");
  return once;
}

describe("formatSource: a comment inside a collection whose elements share a line", () => {
  it("keeps the collection as written, with `{` after `[` (OPA's nested comment case)", () => {
    const src = text(
      "package p",
      "",
      "x := {",
      '\t"a": [{',
      '\t\t"b": 1,',
      "\t\t# why",
      '\t\t"c": 2,',
      "\t}],",
      '\t"d": 3,',
      "}",
    );
    assert.equal(fmtStable(src), src);
  });

  it("writes the whole rule value as its source, not only the collection", () => {
    const src = text("package p", "", 'x := {"d": 3,', '"a": [{', "  # why", '  "b": 1}]}');
    assert.equal(fmtStable(src), src);
  });

  it("keeps a call's collection argument as written", () => {
    const src = text("package p", "", "x := f({", "\t# why", '\t"a": 1,', "})");
    assert.equal(fmtStable(src), src);
  });

  it("keeps only that expression as written; the rest of the body is formatted", () => {
    const src = text(
      "package p",
      "",
      "p if {",
      "\tx := [{",
      "\t\t# why",
      '\t\t"a": 1}]',
      "  y   :=  2",
      "}",
    );
    const want = text(
      "package p",
      "",
      "p if {",
      "\tx := [{",
      "\t\t# why",
      '\t\t"a": 1}]',
      "\ty := 2",
      "}",
    );
    assert.equal(fmtStable(src), want);
  });

  it("keeps a comment after the collection at the end of its line", () => {
    const src = text("package p", "", "x := [", "\t# why", "\t1] # after", "", "y := 1");
    assert.equal(fmtStable(src), src);
  });

  it("keeps a term as written where two of its comments would share a line", () => {
    const src = text(
      "package p",
      "",
      'v := {"a":  # one',
      '"b"} # two',
      "",
      "x := 1 + # one",
      "  2 # two",
    );
    assert.equal(fmtStable(src), src);
    const one = text("package p", "", 'y := {"a":  # one', '"b"}');
    assert.equal(fmtStable(one), text("package p", "", 'y := {"a": "b"} # one'));
  });

  it("lays out a collection spread over lines as before, comments and all", () => {
    const src = text("package p", "", "x := [1, # one", "  2]");
    assert.equal(fmtStable(src), text("package p", "", "x := [", "\t1, # one", "\t2,", "]"));
  });
});

describe("formatSource: `|` unions and parentheses", () => {
  it("keeps the parentheses the source had around a union in a call argument", () => {
    const src = text("package p", "", "x := f((a | b), or(c, d))");
    assert.equal(fmtStable(src), text("package p", "", "x := f((a | b), c | d)"));
  });

  it("parenthesises a union leading a `p if { ... }` body, as its brace would read as a set's", () => {
    const src = text(
      "package p",
      "",
      "p if {",
      "\t(input.a | input.b)",
      "\tinput.c",
      "}",
      "",
      "q if {",
      "\t(input.a | input.b) == input.c",
      "}",
    );
    assert.equal(fmtStable(src), src);
  });

  it("writes a union bare where no brace precedes it", () => {
    const src = text("package p", "", "p if {", "\tinput.c", "\t(input.a | input.b)", "}");
    const want = text("package p", "", "p if {", "\tinput.c", "\tinput.a | input.b", "}");
    assert.equal(fmtStable(src), want);
  });

  it("parenthesises it leading an else body too, which this parser reads as `p if {`", () => {
    // OPA writes it bare there: its parser never reads an else body as a set comprehension.
    const src = text(
      "package p",
      "",
      "q if {",
      "\tinput.z",
      "} else if {",
      "\t(input.a | input.b)",
      "}",
    );
    assert.equal(fmtStable(src), src);
  });

  it("keeps a parenthesised union alone in a set on one line, `{(x | y)}`", () => {
    const src = text("package p", "", "s := {(", "\tx | y", ")}");
    assert.equal(fmtStable(src), text("package p", "", "s := {(x | y)}"));
  });

  it("keeps the parentheses the source had around a comprehension's term or value", () => {
    const src = text("package p", "", "a := [(x + 1) | x := 1]", "", "o := {k: (1 + 2) | k := 1}");
    assert.equal(fmtStable(src), src);
  });
});

describe("formatSource: call arguments and object comprehensions", () => {
  it("keeps a call's arguments on one line when the source had them on one", () => {
    const src = text("package p", "", "x := count(", "\t[1, 2] # two", ")");
    assert.equal(fmtStable(src), text("package p", "", "x := count([1, 2]) # two"));
  });

  it("puts the key after the brace and the body below it when the source broke the line", () => {
    const src = text("package p", "", "o := {", "", "\tk: v | k := 1", "}");
    assert.equal(fmtStable(src), text("package p", "", "o := {k: v |", "\tk := 1", "}"));
  });
});

describe("formatSource: METADATA headers", () => {
  const header = (text: string, col = 1) => isMetadataHeader({ text, col });

  it("counts any comment at column 1 that begins with METADATA, as OPA's parser", () => {
    assert.ok(header(" METADATA"));
    assert.ok(header("METADATA"));
    assert.ok(header(" METADATA (x)"));
    assert.ok(!header(" METADATA", 2));
    assert.ok(!header(" title: METADATA"));
  });

  it("separates a block from a `#METADATA` header right below it by a blank line", () => {
    const src = text("# METADATA", "# title: a", "#METADATA", "# title: b", "\t# METADATA");
    const map = new SourceMap("t.rego", src);
    const w = new Writer();
    new CommentQueue(readComments(map)).flush(w);
    assert.equal(
      w.text(),
      text("# METADATA", "# title: a", "", "#METADATA", "# title: b", "# METADATA"),
    );
  });
});

describe("formatSource: imports and rules in source order", () => {
  it("leaves an import that follows rules where it is, as OPA's printer does", () => {
    const src = text(
      "package p",
      "",
      "import data.a",
      "",
      "x := 1",
      "",
      "import data.b",
      "",
      "y := b",
    );
    assert.equal(fmtStable(src), src);
  });

  it("sorts each run of imports between rules on its own", () => {
    const src = text("package p", "x := 1", "import data.z", "import data.b # b", "y := 2");
    assert.equal(
      fmtStable(src),
      text("package p", "", "x := 1", "", "import data.b # b", "import data.z", "", "y := 2"),
    );
  });

  it("keeps a comment above a later import above it", () => {
    const src = text("package p", "", "x := 1", "", "# why", "import data.b", "", "y := b");
    assert.equal(fmtStable(src), src);
  });
});

describe("formatSource: grouping one-line rules (OPA v1.16, which trivy-checks' CI pins)", () => {
  it("keeps a one-line rule on the line above a rule with else", () => {
    const src = text("package p", "", "d := 30", "m := c if {", "\tc > 0", "} else := d");
    assert.equal(fmtStable(src), src);
  });

  it("separates a rule with else from the next rule (its else is on a line of its own)", () => {
    const src = text("package p", "", "m := 1 if input.a else := 2", "n := 3");
    assert.equal(
      fmtStable(src),
      text("package p", "", "m := 1 if input.a", "", "else := 2", "", "n := 3"),
    );
  });

  it("separates a rule whose body is one set from the next (its braces stay)", () => {
    const src = text("package p", "", 'allow if { {"a"} }', "deny if input.b");
    assert.equal(
      fmtStable(src),
      text("package p", "", "allow if {", '\t{"a"}', "}", "", "deny if input.b"),
    );
  });
});
