/**
 * Two places OPA's parser refuses what a permissive reading would accept: `else` after a
 * rule that adds members or has variables in its head (the else value would be added as a
 * member whatever the body said), and `future` imports other than `future.keywords[.kw]`.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { headsPackage, headsParseError } from "./helpers.js";

describe("else", () => {
  it("cannot follow a multi-value rule, whose failing body would still add a member", () => {
    const source = "package heads\np contains 1 if false else := 2\n";
    assert.equal(
      headsParseError(source),
      "2:23: rego_parse_error: else keyword cannot be used on multi-value rules",
    );
  });

  it("cannot follow a rule with variables in its head", () => {
    for (const head of ['p[x] := 1 if { x := "a" }', 'p.q[x] := 1 if { x := "a" }']) {
      assert.match(
        headsParseError(`package heads\n${head} else := 2\n`),
        /^2:\d+: rego_parse_error: else keyword cannot be used on rules with variables in head$/,
        head,
      );
    }
  });

  it("still follows single-value rules, ground ref heads and functions", () => {
    const source = [
      "package heads",
      "p := 1 if false else := 2",
      'q["a"] := 1 if false else := 3',
      "f(x) := 1 if x > 5 else := 4",
      "r := f(1)",
    ].join("\n");
    assert.deepEqual(headsPackage(source), { p: 2, q: { a: 3 }, r: 4 });
  });
});

describe("future imports", () => {
  it("refuses what is not future.keywords or one of its keywords", () => {
    const cases: Array<[string, string]> = [
      ["import future", "invalid import, must be `future.keywords`"],
      ["import future.a", "invalid import, must be `future.keywords`"],
      ["import future.keywords.in.x", "invalid import, must be `future.keywords`"],
      ["import future.keywords.xyz", "unexpected keyword, must be one of [contains every if in]"],
      ["import future.keywords as kw", "`future` imports cannot be aliased"],
      ["import future.keywords.in as kw", "`future` imports cannot be aliased"],
    ];
    for (const [line, message] of cases) {
      assert.equal(
        headsParseError(`package heads\n${line}\np := 1\n`, true),
        `2:8: rego_parse_error: ${message}`,
        line,
      );
    }
  });

  it("takes one keyword or all of them", () => {
    const one = "package heads\nimport future.keywords.in\np := 1 in [1]\n";
    assert.deepEqual(headsPackage(one, true), { p: true });
    const all = "package heads\nimport future.keywords\np contains x if { some x in [1] }\n";
    assert.deepEqual(headsPackage(all, true), { p: [1] });
  });
});
