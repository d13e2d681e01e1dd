/**
 * A top-level statement with neither value nor body (`allow` alone on a line) is, for OPA,
 * an expression, and a module may hold one only where it reads as a rule: never a bare name,
 * a negation or a keyword as a name, and in Rego v1 never a bare ref either. Read as
 * `allow = true`, a stray line would turn a default deny into an allow.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { headsPackage, headsParseError } from "./helpers.js";

/** The parse error, without its code. */
const parseError = (source: string, v0 = false) =>
  headsParseError(source, v0).replace(": rego_parse_error", "");

describe("statements that are not rules", () => {
  it("refuses a stray name after a default deny instead of allowing", () => {
    const source = "package heads\n\ndefault allow := false\nallow\n";
    assert.equal(parseError(source), "4:1: var cannot be used for rule name");
    assert.equal(parseError(source, true), "4:1: var cannot be used for rule name");
  });

  it("refuses what OPA refuses in Rego v1, naming the problem", () => {
    const cases: Array<[string, string]> = [
      ["allow if true\nx", "3:1: var cannot be used for rule name"],
      ["not allow", "2:1: negated expressions cannot be used for rule head"],
      ["not := 1", "2:1: negated expressions cannot be used for rule head"],
      ["a.b", "2:1: `contains` keyword is required for partial set rules"],
      ["a[1]", "2:1: `contains` keyword is required for partial set rules"],
      ["a.b.c", "2:1: rule must have value assignment and/or body declaration"],
      ["{}", "2:1: object cannot be used for rule name"],
      ["1", "2:1: number cannot be used for rule name"],
      ['"p" := 1', "2:1: string cannot be used for rule name"],
      ["if := 1", "2:1: if keyword cannot be used for rule name"],
      ["contains := 1", "2:1: contains keyword cannot be used for rule name"],
      ["every(x) := x", "2:1: every keyword cannot be used for rule name"],
    ];
    for (const [statement, error] of cases) {
      assert.equal(parseError(`package heads\n${statement}\n`), error, statement);
    }
  });

  it("holds a v0 module that imports rego.v1 to the same rules", () => {
    const source = "package heads\nimport rego.v1\na.b\n";
    assert.equal(
      parseError(source, true),
      "3:1: `contains` keyword is required for partial set rules",
    );
  });

  it("keeps v0's bodiless partial sets and dotted heads, and its names that v1 reserves", () => {
    assert.deepEqual(headsPackage('package heads\na["x"]\nb.c.d\nif := 1\n', true), {
      a: ["x"],
      b: { c: { d: true } },
      if: 1,
    });
  });

  it("still reads what is a rule without a body", () => {
    const source = [
      "package heads",
      "p := 1 q := 2",
      "s contains 3",
      "f(1)",
      "not.foo := 4",
      "r := f(1)",
    ].join("\n");
    assert.deepEqual(headsPackage(source), { p: 1, q: 2, s: [3], not: { foo: 4 }, r: true });
  });
});
