import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Value } from "../value/value.js";
import { lookupBuiltin } from "./registry.js";
import { testContext } from "./testing/call-builtin.js";

const ctx = testContext();

function call(name: string, ...args: Value[]): Value | undefined {
  const def = lookupBuiltin(name);
  assert.ok(def, `builtin ${name} is registered`);
  return def.impl(args, ctx);
}

describe("regex builtins", () => {
  it("regex.match and re_match search unanchored with RE2 syntax", () => {
    assert.equal(call("regex.match", "^[a-z]+\\[[0-9]+\\]$", "foo[1]"), true);
    assert.equal(call("regex.match", "", "x"), true);
    assert.equal(call("regex.match", "^$", "something"), false);
    assert.equal(call("re_match", "(?i)FOO", "a foo"), true);
    assert.equal(call("regex.match", "\\pL+", "é"), true);
  });

  it("reports a bad pattern with Go's parser message", () => {
    assert.throws(() => call("regex.match", "$^[[[", "x"), {
      name: "BuiltinError",
      message: "regex.match: error parsing regexp: missing closing ]: `[[[`",
    });
    // Backreferences and lookarounds are not RE2.
    assert.throws(() => call("regex.match", "(a)\\1", "aa"), { name: "BuiltinError" });
    assert.throws(() => call("regex.match", "a(?=b)", "ab"), { name: "BuiltinError" });
  });

  it("regex.is_valid is false for bad patterns and non-strings", () => {
    assert.equal(call("regex.is_valid", ".+"), true);
    assert.equal(call("regex.is_valid", "++"), false);
    assert.equal(call("regex.is_valid", 10), false);
  });

  it("regex.find_n honours the limit, and counts code points correctly", () => {
    assert.deepEqual(call("regex.find_n", "a.", "paranormal", -1), ["ar", "an", "al"]);
    assert.deepEqual(call("regex.find_n", "a.", "paranormal", 2), ["ar", "an"]);
    assert.deepEqual(call("regex.find_n", "a.", "paranormal", 0), []);
    assert.deepEqual(call("regex.find_n", "é.", "aébé😀", -1), ["éb", "é😀"]);
    assert.throws(() => call("regex.find_n", "a", "a", 1.5), {
      message: "regex.find_n: operand 3 must be integer number but got floating-point number",
    });
  });

  it("regex.find_all_string_submatch_n returns groups, unmatched ones empty", () => {
    const fn = "regex.find_all_string_submatch_n";
    assert.deepEqual(call(fn, "a(x*)b", "-ab-axb-", -1), [
      ["ab", ""],
      ["axb", "x"],
    ]);
    assert.deepEqual(call(fn, "[^aouiye]([aouiye])([^aouiye])?", "somestri", -1), [
      ["som", "o", "m"],
      ["ri", "i", ""],
    ]);
    assert.deepEqual(call(fn, "[^aouiye]([aouiye])([^aouiye])?", "somestri", 1), [
      ["som", "o", "m"],
    ]);
  });

  it("regex.split follows Go's Regexp.Split", () => {
    assert.deepEqual(call("regex.split", "a", "banana"), ["b", "n", "n", ""]);
    assert.deepEqual(call("regex.split", "^[a-z]+", "foobar baz"), ["", " baz"]);
    assert.deepEqual(call("regex.split", "^[a-z ]+$", "foobar baz"), ["", ""]);
    assert.deepEqual(call("regex.split", "x", ""), [""]);
  });

  // biome-ignore lint/suspicious/noTemplateCurlyInString: Go's ${name} replacement syntax
  it("regex.replace expands $1, ${name} and $$ like Go", () => {
    assert.equal(call("regex.replace", "-wy-wxxy-", "w(x*)y", "0"), "-0-0-");
    assert.equal(call("regex.replace", "foo", "(foo)", "$1$1"), "foofoo");
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Go's ${name} replacement syntax
    assert.equal(call("regex.replace", "abc", "(?P<x>b)", "[${x}$x $$ $]"), "a[bb $ $]c");
    assert.equal(call("regex.replace", "abc", "(b)", "$1x"), "ac");
    assert.equal(call("regex.replace", "foo barx", "[a-z]{2}", "_"), "_o __");
    assert.throws(() => call("regex.replace", "foo", "[", "x"), { name: "BuiltinError" });
    // Go allows one name on several groups; ${n} is the first of them that matched.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Go's ${name} replacement syntax
    assert.equal(call("regex.replace", "b", "(?P<n>a)|(?P<n>b)", "<${n}>"), "<b>");
    assert.deepEqual(call("regex.find_all_string_submatch_n", "(?P<n>a)(?P<n>b)", "ab", -1), [
      ["ab", "a", "b"],
    ]);
    assert.throws(() => call("regex.match", "(?P<n>a)((?P<n>a)", "a"), {
      message: "regex.match: error parsing regexp: missing closing ): `(?P<n>a)((?P<n>a)`",
    });
  });

  it("regex.template_match treats text outside delimiters literally", () => {
    assert.equal(call("regex.template_match", "urn:foo:{.*}", "urn:foo:bar:baz", "{", "}"), true);
    assert.equal(call("regex.template_match", "urn:f.o:<.*>", "urn:foo:bar", "<", ">"), false);
    assert.equal(call("regex.template_match", "urn:f.o:<.*>", "urn:f.o:bar", "<", ">"), true);
    assert.throws(() => call("regex.template_match", "urn:{.*", "urn:x", "{", "}"), {
      message: 'regex.template_match: unbalanced braces in "urn:{.*"',
    });
    assert.throws(() => call("regex.template_match", "x", "x", "{{", "}"), {
      message:
        "regex.template_match: start delimiter has to be exactly one character long but is 2 long",
    });
  });

  it("regex.globs_match decides whether two globs share a non-empty string", () => {
    assert.equal(call("regex.globs_match", "a.a.[0-9]+z", ".b.b2359825792*594823z"), true);
    assert.equal(call("regex.globs_match", "[a-z]+", "[0-9]*"), false);
    assert.equal(call("regex.globs_match", "[a-z]*", "[0-9]*"), false);
    assert.equal(call("regex.globs_match", "b.*", "bar"), true);
    assert.equal(call("regex.globs_match", "[a-z]+\\[[0-9]+\\]", "foo\\[1\\]"), true);
    assert.equal(call("regex.globs_match", "[a-z]+\\[[0-9]+\\]", 'foo["bar"]'), false);
    assert.equal(call("regex.globs_match", "abcd[a-c]z+", "abcd[b-d][yz]*"), true);
    assert.equal(call("regex.globs_match", ".*.*.*.*.*.*.*.*.*.*.*.*", ".*.*.*.*.*.*.*.*.*"), true);
  });

  it("regex.globs_match reports malformed globs with their position", () => {
    assert.throws(() => call("regex.globs_match", "pqrs]", "[a-b]+"), {
      name: "BuiltinError",
      message:
        "regex.globs_match: input:pqrs], pos:5, set-close ']' with no preceding '[': the input provided is invalid",
    });
    assert.throws(() => call("regex.globs_match", "+a", "a"), {
      message: /flag '\+' must be preceded by a non-flag/,
    });
    assert.throws(() => call("regex.globs_match", "[ab", "a"), {
      message: /found \[ without matching \]/,
    });
  });
});
