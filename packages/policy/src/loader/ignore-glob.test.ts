import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { globRegExp, ignoreMatcher } from "./ignore-glob.js";

describe("ignore patterns (Go's filepath.Match on a name)", () => {
  const matches = (pattern: string, name: string) => ignoreMatcher([pattern])(name);

  it("matches * ? and literal names", () => {
    assert.ok(matches("*_gen.rego", "x_gen.rego"));
    assert.ok(matches("*_gen.rego", "_gen.rego"));
    assert.ok(!matches("*_gen.rego", "x_gen.rego.bak"));
    assert.ok(matches("vendor", "vendor"));
    assert.ok(!matches("vendor", "vendors"));
    assert.ok(matches("a?c", "abc"));
    assert.ok(!matches("a?c", "ac"));
    assert.ok(matches(".*", ".hidden"));
    assert.ok(!matches("*.json", "data.yaml"));
  });

  it("takes regex characters literally", () => {
    assert.ok(matches("a.b+(c)", "a.b+(c)"));
    assert.ok(!matches("a.b", "axb"));
    assert.ok(matches("{x}|$", "{x}|$"));
  });

  it("matches character classes, ranges, negation and escapes", () => {
    assert.ok(matches("[abc].rego", "b.rego"));
    assert.ok(!matches("[abc].rego", "d.rego"));
    assert.ok(matches("[a-c]x", "cx"));
    assert.ok(matches("[^a-c]x", "dx"));
    assert.ok(!matches("[^a-c]x", "ax"));
    assert.ok(matches("\\*", "*"));
    assert.ok(!matches("\\*", "a"));
    assert.ok(matches("[\\]]", "]"));
    assert.ok(matches("é*", "été"));
  });

  it("treats a malformed pattern as matching nothing, as OPA drops the error", () => {
    for (const bad of ["[", "[]", "[a-", "[-a]", "x\\", "[^"]) {
      assert.equal(globRegExp(bad), undefined, bad);
      assert.ok(!matches(bad, bad), bad);
    }
    // A reversed range is not malformed in Go; it matches nothing.
    assert.ok(!matches("[z-a]", "m"));
    assert.ok(matches("[^z-a]", "m"));
  });

  it("matches when any pattern matches", () => {
    const ignored = ignoreMatcher(["vendor", "*_gen.rego"]);
    assert.ok(ignored("vendor"));
    assert.ok(ignored("p_gen.rego"));
    assert.ok(!ignored("p.rego"));
    assert.ok(!ignoreMatcher([])("anything"));
  });
});
