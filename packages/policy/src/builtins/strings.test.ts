import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { BuiltinError, BuiltinTypeError } from "../errors.js";
import { RegoObject, RegoSet, type Value } from "../value/value.js";
import { lookupBuiltin } from "./registry.js";
import { testContext } from "./testing/call-builtin.js";

const ctx = testContext();

function call(name: string, ...args: Value[]): Value | undefined {
  const def = lookupBuiltin(name);
  assert.ok(def, `builtin ${name} is registered`);
  return def.impl(args, ctx);
}

describe("string builtins", () => {
  it("concat joins arrays and sets (sets in sorted order)", () => {
    assert.equal(call("concat", "/", ["", "foo", "bar"]), "/foo/bar");
    assert.equal(call("concat", ",", RegoSet.of(["b", "a"])), "a,b");
    assert.throws(() => call("concat", ",", ["a", 1]), {
      name: "BuiltinTypeError",
      message: "concat: operand 2 must be array of strings but got array containing number",
    });
    assert.throws(() => call("concat", ",", "ab"), {
      message: "concat: operand 2 must be one of {set, array} but got string",
    });
  });

  it("format_int truncates toward zero and checks the base", () => {
    assert.equal(call("format_int", 15.5, 16), "f");
    assert.equal(call("format_int", -3.9, 10), "-3");
    assert.equal(call("format_int", 5, 2), "101");
    assert.equal(call("format_int", 1e30, 10), "1000000000000000000000000000000");
    assert.equal(
      call("format_int", 123456789012345678901234567890n, 16),
      "18ee90ff6c373e0ee4e3f0ad2",
    );
    assert.throws(() => call("format_int", 4.1, 199), {
      name: "BuiltinTypeError",
      message: "format_int: operand 2 must be one of {2, 8, 10, 16}",
    });
    assert.throws(() => call("format_int", 4, 10.5), {
      message: "format_int: operand 2 must be one of {2, 8, 10, 16}",
    });
    assert.throws(() => call("format_int", "4", 10), {
      message: "format_int: operand 1 must be number but got string",
    });
  });

  it("indexof and indexof_n count code points", () => {
    assert.equal(call("indexof", "abcabcabcdefgh", "cde"), 8);
    assert.equal(call("indexof", "🍧🍨🧁🍰🍮", "🍮"), 4);
    assert.equal(call("indexof", "μ", "μμ"), -1);
    assert.deepEqual(call("indexof_n", "😇😀😇😀😇😀", "😀"), [1, 3, 5]);
    assert.deepEqual(call("indexof_n", "aaa", "aa"), [0, 1]);
    assert.deepEqual(call("indexof_n", "dogcat", "rabbit"), []);
    assert.throws(() => call("indexof", "abc", ""), {
      name: "BuiltinError",
      message: "indexof: empty search character",
    });
    assert.throws(() => call("indexof_n", "abc", ""), {
      message: "indexof_n: empty search character",
    });
  });

  it("substring takes code points, a negative length means the rest", () => {
    assert.equal(call("substring", "abcdefgh", 2, 3), "cde");
    assert.equal(call("substring", "aåäö", 2, -1), "äö");
    assert.equal(call("substring", "abcdefghåäö", 2, 10000), "cdefghåäö");
    assert.equal(call("substring", "åäö", 3, -1), "");
    assert.throws(() => call("substring", "aaa", -1, -1), {
      name: "BuiltinError",
      message: "substring: negative offset",
    });
    assert.throws(() => call("substring", "aaa", 1.5, 1), {
      name: "BuiltinTypeError",
      message: "substring: operand 2 must be integer number but got floating-point number",
    });
  });

  it("split, replace and strings.count follow Go for empty separators", () => {
    assert.deepEqual(call("split", "", "."), [""]);
    assert.deepEqual(call("split", "test", ""), ["t", "e", "s", "t"]);
    assert.deepEqual(call("split", "", ""), []);
    assert.deepEqual(call("split", "a😀b", ""), ["a", "😀", "b"]);
    assert.equal(call("replace", "foo...bar", "..", ",,"), "foo,,.bar");
    assert.equal(call("replace", "ab", "", "-"), "-a-b-");
    // Go inserts between bytes, splitting é into two stray bytes.
    assert.equal(call("replace", "éa", "", "-"), "-\ufffd-\ufffd-a-");
    assert.equal(call("strings.count", "cheese", "e"), 3);
    assert.equal(call("strings.count", "11111", "11"), 2);
    assert.equal(call("strings.count", "dummy", ""), 6);
    assert.equal(call("strings.count", "", ""), 1);
  });

  it("strings.replace_n prefers the first key in sorted order at each position", () => {
    const patterns = RegoObject.fromEntries([
      ["foo", "xxx"],
      ["f", "x"],
    ]);
    assert.equal(call("strings.replace_n", patterns, "foobar"), "xoobar");
    const html = RegoObject.fromEntries([
      ["<", "&lt;"],
      [">", "&gt;"],
    ]);
    assert.equal(
      call("strings.replace_n", html, "This is <b>HTML</b>!"),
      "This is &lt;b&gt;HTML&lt;/b&gt;!",
    );
    const withEmpty = RegoObject.fromEntries([
      ["", "-"],
      ["b", "B"],
    ]);
    assert.equal(call("strings.replace_n", withEmpty, "ab"), "-a-B-");
  });

  it("strings.replace_n rejects non-string keys, values and subjects", () => {
    assert.throws(() => call("strings.replace_n", RegoObject.fromEntries([[2, "x"]]), "foo"), {
      name: "BuiltinTypeError",
      message: "strings.replace_n: operand 1 non-string key found in pattern object",
    });
    assert.throws(() => call("strings.replace_n", RegoObject.fromEntries([["f", 100]]), "foo"), {
      message: "strings.replace_n: operand 1 non-string value found in pattern object",
    });
    assert.throws(() => call("strings.replace_n", RegoObject.fromEntries([["f", "x"]]), 100), {
      message: "strings.replace_n: operand 2 must be string but got number",
    });
  });

  it("trim family treats the cutset as code points and trim_space as Go's spaces", () => {
    assert.equal(call("trim", "¡¡¡foo, bar!!!", "!¡"), "foo, bar");
    assert.equal(call("trim", "...foo.bar...", ".fr"), "oo.ba");
    assert.equal(call("trim_left", "¡¡¡foo, bar!!!", "!¡"), "foo, bar!!!");
    assert.equal(call("trim_right", "¡¡¡foo, bar!!!", "!¡"), "¡¡¡foo, bar");
    assert.equal(call("trim_prefix", "¡¡¡foo, bar!!!", "¡¡¡foo"), ", bar!!!");
    assert.equal(call("trim_suffix", "¡¡¡foo, bar!!!", ", foo!!!"), "¡¡¡foo, bar!!!");
    assert.equal(call("trim_space", " \t\n foo, bar \n\t\r\n\u0085"), "foo, bar");
    assert.equal(call("trim_space", "\ufefffoo"), "\ufefffoo");
  });

  it("contains, startswith, endswith, lower, upper and strings.reverse", () => {
    assert.equal(call("contains", "abcdefgh", "defg"), true);
    assert.equal(call("contains", "abcdefgh", "ac"), false);
    assert.equal(call("startswith", "abcdefgh", "abcd"), true);
    assert.equal(call("endswith", "abcdefgh", "fg"), false);
    assert.equal(call("lower", "AbCdEf"), "abcdef");
    assert.equal(call("upper", "AbCdEf"), "ABCDEF");
    // Per code point, as Go maps case: no final sigma, no expansions.
    assert.equal(call("lower", "ΟΔΟΣ İ"), "οδοσ i");
    assert.equal(call("upper", "straße é"), "STRAßE É");
    assert.equal(call("strings.reverse", "1😀𝛾"), "𝛾😀1");
    assert.throws(() => call("strings.reverse", 123), {
      message: "strings.reverse: operand 1 must be string but got number",
    });
    assert.throws(() => call("upper", null), {
      message: "upper: operand 1 must be string but got null",
    });
  });

  it("any_prefix_match and any_suffix_match accept strings, arrays and sets", () => {
    assert.equal(call("strings.any_prefix_match", ["a/b/c", "e/f/g"], ["d/", "e/"]), true);
    assert.equal(call("strings.any_prefix_match", "a/b/c", RegoSet.of(["g/", "d/"])), false);
    assert.equal(call("strings.any_suffix_match", RegoSet.of(["a/b/c"]), "/c"), true);
    assert.equal(call("strings.any_suffix_match", [], []), false);
  });

  it("any_prefix_match names the operand and the bad element", () => {
    const fn = "strings.any_prefix_match";
    assert.throws(() => call(fn, [1, 2], ["a"]), {
      message: `${fn}: operand 1 must be array of strings but got array containing number`,
    });
    assert.throws(() => call(fn, ["a"], 1), {
      message: `${fn}: operand 2 must be one of {string, set, array} but got number`,
    });
    assert.throws(() => call(fn, ["a"], RegoSet.of([true])), {
      message: `${fn}: operand 2 must be set of strings but got set containing boolean`,
    });
  });

  it("raises the error classes the evaluator maps to OPA codes", () => {
    assert.throws(() => call("substring", "a", -2, 1), BuiltinError);
    assert.throws(() => call("trim", 1, "x"), BuiltinTypeError);
  });
});
