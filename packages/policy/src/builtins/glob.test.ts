import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Value } from "../value/value.js";
import { lookupBuiltin } from "./registry.js";
import { testContext } from "./testing/call-builtin.js";

const ctx = testContext();

function match(pattern: string, delimiters: Value, subject: Value): Value | undefined {
  const def = lookupBuiltin("glob.match");
  assert.ok(def, "glob.match is registered");
  return def.impl([pattern, delimiters, subject], ctx);
}

describe("glob builtins", () => {
  it("* stays within delimiters while ** crosses them", () => {
    assert.equal(match("*.github.com", ["."], "api.github.com"), true);
    assert.equal(match("*.github.com", ["."], "api.cdn.github.com"), false);
    assert.equal(match("api.**.com", ["."], "api.cdn.github.com"), true);
    assert.equal(match("*:github:com", [":"], "api:github:com"), true);
  });

  it("uses '.' for an empty delimiter list and no delimiters for null", () => {
    assert.equal(match("*", [], "foo.bar"), false);
    assert.equal(match("*", null, "foo.bar"), true);
    assert.equal(match("foo*", null, "foo.bar"), true);
  });

  it("supports ?, character classes, negation and ranges", () => {
    assert.equal(match("?at", [], "fat"), true);
    assert.equal(match("?at", [], "at"), false);
    assert.equal(match("?at", ["f"], "fat"), false);
    assert.equal(match("[abc]at", [], "cat"), true);
    assert.equal(match("[!abc]at", [], "cat"), false);
    assert.equal(match("[a-c]at", [], "bat"), true);
    assert.equal(match("[!a-c]at", [], "fat"), true);
  });

  it("supports nested alternatives and escapes", () => {
    assert.equal(match("{cat,bat,[fr]at}", [], "rat"), true);
    assert.equal(match("{cat,bat,[fr]at}", [], "at"), false);
    assert.equal(match("a{b,c{d,e}}f", [], "acef"), true);
    assert.equal(match("a\\*b", null, "a*b"), true);
    assert.equal(match("a\\*b", null, "axb"), false);
    assert.equal(match("a,b}", null, "a,b}"), true);
  });

  it("reports malformed globs and bad operands", () => {
    assert.throws(() => match("[a-", [], "x"), {
      name: "BuiltinError",
      message: "glob.match: unexpected end of input",
    });
    assert.throws(() => match("{a,b", [], "x"), { name: "BuiltinError" });
    assert.throws(() => match("*", "x", "x"), {
      name: "BuiltinTypeError",
      message: "glob.match: operand 2 must be one of {array, null} but got string",
    });
    assert.throws(() => match("*", [1], "x"), {
      message: "glob.match: operand 2 must be array of strings but got array containing number",
    });
    assert.throws(() => match("*", ["ab"], "x"), {
      message: "glob.match: operand 2 must be array of runes but got array containing string",
    });
    assert.throws(() => match("*", [], 1), {
      message: "glob.match: operand 3 must be string but got number",
    });
  });

  it("glob.quote_meta escapes the glob metacharacters", () => {
    const def = lookupBuiltin("glob.quote_meta");
    assert.ok(def);
    assert.equal(def.impl(["*.github.com"], ctx), "\\*.github.com");
    assert.equal(def.impl(["[a]{b}?\\"], ctx), "\\[a\\]\\{b\\}\\?\\\\");
    assert.equal(match(def.impl(["{*}"], ctx) as string, null, "{*}"), true);
  });
});
