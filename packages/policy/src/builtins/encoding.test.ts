import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { RegoObject, RegoSet, type Value } from "../value/value.js";
import { lookupBuiltin } from "./registry.js";
import { testContext } from "./testing/call-builtin.js";

const ctx = testContext();

function call(name: string, ...args: Value[]): Value | undefined {
  const def = lookupBuiltin(name);
  assert.ok(def, `builtin ${name} is registered`);
  return def.impl(args, ctx);
}

const obj = (entries: [Value, Value][]): RegoObject => RegoObject.fromEntries(entries);

describe("JSON builtins", () => {
  it("json.marshal sorts keys, turns sets into arrays and escapes HTML characters", () => {
    const value = [obj([["foo", RegoSet.of([3, 1, 2])]])];
    assert.equal(call("json.marshal", value), '[{"foo":[1,2,3]}]');
    assert.equal(
      call(
        "json.marshal",
        obj([
          ["b", 1],
          ["a", "<x&y>"],
        ]),
      ),
      '{"a":"\\u003cx\\u0026y\\u003e","b":1}',
    );
    assert.equal(
      call("json.marshal", [123456789012345678901234567890n, 1.5]),
      "[123456789012345678901234567890,1.5]",
    );
  });

  it("json.marshal_with_options indents with a leading prefix and keeps empty containers compact", () => {
    const fn = "json.marshal_with_options";
    assert.equal(call(fn, [1, 2], obj([["indent", "  "]])), "[\n  1,\n  2\n]");
    assert.equal(call(fn, [1], obj([["pretty", true]])), "[\n\t1\n]");
    assert.equal(call(fn, [1, 2], obj([])), "[1,2]");
    assert.equal(
      call(
        fn,
        [],
        obj([
          ["indent", "    "],
          ["prefix", "---"],
        ]),
      ),
      "---[]",
    );
    assert.equal(
      call(
        fn,
        obj([
          ["foo", "bar"],
          ["bar", "baz"],
        ]),
        obj([["prefix", "J> "]]),
      ),
      'J> {\nJ> \t"bar": "baz",\nJ> \t"foo": "bar"\nJ> }',
    );
    assert.equal(
      call(
        fn,
        [1],
        obj([
          ["pretty", false],
          ["prefix", "NO!"],
          ["indent", "BAD!"],
        ]),
      ),
      "[1]",
    );
    assert.equal(call(fn, ["a,b:[c]"], obj([["indent", " "]])), '[\n "a,b:[c]"\n]');
  });

  it("json.marshal_with_options rejects unknown keys and mistyped options", () => {
    const fn = "json.marshal_with_options";
    assert.throws(() => call(fn, [], obj([["include_winning_lottery_numbers", true]])), {
      name: "BuiltinTypeError",
      message: `${fn}: operand 2 object contained unknown key "include_winning_lottery_numbers"`,
    });
    assert.throws(() => call(fn, [], obj([["pretty", "yes"]])), {
      message: `${fn}: operand 2 key pretty failed cast to bool`,
    });
    assert.throws(() => call(fn, [], obj([["indent", 1]])), {
      message: `${fn}: operand 2 key indent failed cast to string: operand 0 must be string but got number`,
    });
    assert.throws(() => call(fn, [], "x"), {
      message: `${fn}: operand 2 must be object but got string`,
    });
  });

  it("json.unmarshal builds values and keeps big integers exact", () => {
    const v = call(
      "json.unmarshal",
      '[{"foo":[1,2,3]}, 123456789012345678901234567890, -0.5e3, "\\u00e9\\n", null, true]',
    );
    assert.ok(Array.isArray(v));
    assert.ok(v[0] instanceof RegoObject);
    assert.deepEqual(v[0].get("foo"), [1, 2, 3]);
    assert.deepEqual(v.slice(1), [123456789012345678901234567890n, -500, "é\n", null, true]);
  });

  it("json.unmarshal reports malformed text with Go's wording", () => {
    const bad = (text: string, message: string) =>
      assert.throws(() => call("json.unmarshal", text), {
        name: "BuiltinError",
        message: `json.unmarshal: ${message}`,
      });
    bad("plain", "invalid character 'p' looking for beginning of value");
    bad("{", "unexpected end of JSON input");
    bad('{"a":1,}', "invalid character '}' looking for beginning of object key string");
    bad('{"a" 1}', "invalid character '1' after object key");
    bad("[1 2]", "invalid character '2' after array element");
    bad("1 2", "invalid character '2' after top-level value");
    bad("trux", "invalid character 'x' in literal true (expecting 'e')");
    bad("1.]", "invalid character ']' after decimal point in numeric literal");
    bad("1e+x", "invalid character 'x' in exponent of numeric literal");
    bad('"a\nb"', "invalid character '\\n' in string literal");
    bad("'", "invalid character '\\'' looking for beginning of value");
    // At the end of input Go blames a space when it was inside a token.
    bad("tr", "invalid character ' ' in literal true (expecting 'u')");
    bad("-", "invalid character ' ' in numeric literal");
    bad('"\\u12', "invalid character ' ' in \\u hexadecimal character escape");
    bad('"é"é', "invalid character 'Ã' after top-level value");
    bad("[1e999, x]", "invalid character 'x' looking for beginning of value");
    bad("1e999", "number 1e999 is out of the representable range");
    assert.throws(() => call("json.unmarshal", 1), {
      name: "BuiltinTypeError",
      message: "json.unmarshal: operand 1 must be string but got number",
    });
  });

  it("json.unmarshal pairs surrogate escapes and replaces lone halves", () => {
    assert.equal(call("json.unmarshal", '"\\ud83d\\ude00"'), "😀");
    assert.equal(call("json.unmarshal", '"\\ud83dx"'), "\ufffdx");
  });

  it("json.is_valid is false for bad text and non-strings", () => {
    assert.equal(call("json.is_valid", '{"json": "ok"}'), true);
    assert.equal(call("json.is_valid", "{"), false);
    assert.equal(call("json.is_valid", "plainstring"), false);
    assert.equal(call("json.is_valid", 1), false);
    assert.equal(call("json.is_valid", "[1e999]"), true);
  });
});

describe("YAML builtins", () => {
  it("round-trips values through yaml.marshal and yaml.unmarshal", () => {
    const text = call("yaml.marshal", [obj([["foo", RegoSet.of([1, 2, 3])]])]);
    assert.equal(text, "- foo:\n  - 1\n  - 2\n  - 3\n");
    const back = call("yaml.unmarshal", text as string);
    assert.ok(Array.isArray(back) && back[0] instanceof RegoObject);
    assert.deepEqual(back[0].get("foo"), [1, 2, 3]);
  });

  it("yaml.marshal quotes strings as Go's yaml.v2 does", () => {
    const value = obj([
      ["a", "a: b"],
      ["b", "yes"],
      ["c", "1.5"],
      ["d", "plain text"],
      ["e", "tab\there"],
      ["f", ""],
      ["g", "2001-12-14"],
      ["n", null],
    ]);
    assert.equal(
      call("yaml.marshal", value),
      'a: \'a: b\'\nb: "yes"\nc: "1.5"\nd: plain text\ne: "tab\\there"\nf: ""\ng: "2001-12-14"\n"n": null\n',
    );
  });

  it("yaml.unmarshal resolves YAML 1.1 scalars and big integers", () => {
    const v = call("yaml.unmarshal", "a: yes\nb: 123456789012345678901234\nc: ~\nd: '1'\n");
    assert.ok(v instanceof RegoObject);
    assert.equal(v.get("a"), true);
    assert.equal(v.get("b"), 123456789012345678901234n);
    assert.equal(v.get("c"), null);
    assert.equal(v.get("d"), "1");
    const kept = call("yaml.unmarshal", "t: 2001-12-14\ns: 1:30\no: 010\n");
    assert.ok(kept instanceof RegoObject);
    assert.equal(kept.get("t"), "2001-12-14");
    assert.equal(kept.get("s"), "1:30");
    assert.equal(kept.get("o"), 8);
    assert.equal(call("yaml.unmarshal", ""), null);
    assert.throws(() => call("yaml.unmarshal", "*x"), {
      message: "yaml.unmarshal: error converting YAML to JSON: yaml: unknown anchor 'x' referenced",
    });
    assert.throws(() => call("yaml.unmarshal", "{[1]: 2}"), { name: "BuiltinError" });
    assert.equal((call("yaml.unmarshal", "1: a\ntrue: b") as RegoObject).get("true"), "b");
    const bomb =
      "a: &a [x, x]\nb: &b [*a, *a]\nc: &c [*b, *b]\nd: &d [*c, *c]\ne: &e [*d, *d]\nf: &f [*e, *e]\ng: &g [*f, *f]\nh: [*g, *g]";
    assert.throws(() => call("yaml.unmarshal", bomb), { name: "BuiltinError" });
    assert.equal((call("yaml.unmarshal", "a: 1\n---\nb: [") as RegoObject).get("a"), 1);
  });

  it("yaml.unmarshal reports errors with a line number", () => {
    assert.throws(() => call("yaml.unmarshal", "[1,2,3"), {
      name: "BuiltinError",
      message:
        "yaml.unmarshal: error converting YAML to JSON: yaml: line 1: did not find expected ',' or ']'",
    });
    assert.equal(call("yaml.is_valid", "foo:\n  - qux: bar\n  - baz: {"), false);
    assert.equal(call("yaml.is_valid", '{"json": "ok"}'), true);
    assert.equal(call("yaml.is_valid", 1), false);
  });
});

describe("byte encodings", () => {
  it("base64 encodes UTF-8 and decodes strictly", () => {
    assert.equal(call("base64.encode", "subjects?_d"), "c3ViamVjdHM/X2Q=");
    assert.equal(call("base64.decode", "c3ViamVjdHM/X2Q="), "subjects?_d");
    assert.equal(call("base64.encode", "é"), "w6k=");
    assert.throws(() => call("base64.decode", "aGVsbG8"), {
      name: "BuiltinError",
      message: "base64.decode: illegal base64 data at input byte 4",
    });
    assert.throws(() => call("base64.decode", "a$=="), {
      message: "base64.decode: illegal base64 data at input byte 1",
    });
    assert.throws(() => call("base64.decode", "bd=Ad__b"), {
      message: "base64.decode: illegal base64 data at input byte 2",
    });
    assert.throws(() => call("base64.decode", "aGk=x"), {
      message: "base64.decode: illegal base64 data at input byte 4",
    });
    assert.equal(call("base64.decode", "aG\nk="), "hi");
    // Bytes that are not UTF-8 become one U+FFFD each, as Go's strings do in JSON.
    assert.equal(call("base64.decode", "8YA="), "\ufffd\ufffd");
    assert.equal(call("base64.is_valid", "aGVsbG8="), true);
    assert.equal(call("base64.is_valid", "{'not':'base64'}"), false);
  });

  it("base64url pads, omits padding on request and decodes unpadded input", () => {
    assert.equal(call("base64url.encode", "hello"), "aGVsbG8=");
    assert.equal(call("base64url.encode_no_pad", "there"), "dGhlcmU");
    assert.equal(call("base64url.encode", "??>"), "Pz8-");
    assert.equal(call("base64url.decode", "aGVsbG8"), "hello");
    assert.equal(call("base64url.decode", "aGVsbG8="), "hello");
    assert.throws(() => call("base64url.decode", "aGVsb"), {
      message: "base64url.decode: illegal base64url string: aGVsb",
    });
  });

  it("hex reports the first invalid byte before an odd length", () => {
    assert.equal(call("hex.encode", "lorem ipsum"), "6c6f72656d20697073756d");
    assert.equal(call("hex.decode", "6c6f72656d20697073756d"), "lorem ipsum");
    assert.throws(() => call("hex.decode", "fghijkl"), {
      name: "BuiltinError",
      message: "hex.decode: encoding/hex: invalid byte: U+0067 'g'",
    });
    assert.throws(() => call("hex.decode", "abc"), {
      message: "hex.decode: encoding/hex: odd length hex string",
    });
  });

  it("urlquery escapes like Go's QueryEscape and rejects bad escapes", () => {
    assert.equal(call("urlquery.encode", "a=b+1 é"), "a%3Db%2B1+%C3%A9");
    assert.equal(call("urlquery.encode", ""), "");
    assert.equal(call("urlquery.decode", "a%3Db%2B1+x"), "a=b+1 x");
    assert.throws(() => call("urlquery.decode", "%+é"), {
      message: 'urlquery.decode: invalid URL escape "%+\\xc3"',
    });
    assert.throws(() => call("urlquery.decode", "a%zz"), {
      name: "BuiltinError",
      message: 'urlquery.decode: invalid URL escape "%zz"',
    });
  });

  it("urlquery.encode_object sorts keys and repeats array and set values", () => {
    const query = obj([
      ["c", RegoSet.of(["d"])],
      ["a", ["b+1", "c+2"]],
      ["b", "x"],
    ]);
    assert.equal(call("urlquery.encode_object", query), "a=b%2B1&a=c%2B2&b=x&c=d");
    assert.equal(call("urlquery.encode_object", obj([])), "");
    const message =
      "urlquery.encode_object: operand 1 values must be string, array[string], or set[string]";
    assert.throws(() => call("urlquery.encode_object", obj([["a", 1]])), {
      name: "BuiltinTypeError",
      message,
    });
    assert.throws(() => call("urlquery.encode_object", obj([["a", ["x", 2]]])), { message });
  });

  it("urlquery.decode_object groups repeated keys", () => {
    const v = call("urlquery.decode_object", "a=value_a1&b=value_b&a=value_a2&c");
    assert.ok(v instanceof RegoObject);
    assert.deepEqual(v.get("a"), ["value_a1", "value_a2"]);
    assert.deepEqual(v.get("b"), ["value_b"]);
    assert.deepEqual(v.get("c"), [""]);
    assert.equal((call("urlquery.decode_object", "") as RegoObject).size, 0);
    assert.throws(() => call("urlquery.decode_object", "a=1;b=2"), {
      message: "urlquery.decode_object: invalid semicolon separator in query",
    });
  });
});
