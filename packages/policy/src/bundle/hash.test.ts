/** File digests as OPA's bundle hasher computes them, and the Go JSON they rest on. */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, it } from "node:test";
import { jsonString } from "@quintet/gostd/json";
import { goMarshal, type JsonNumber, parseGoJson } from "./go-json.js";
import { canonicalBytes, hashBundleFile, isStructuredDoc, parseStructured } from "./hash.js";

const sha256 = (text: string | Buffer) => createHash("sha256").update(text).digest("hex");
const digest = (name: string, text: string) =>
  hashBundleFile(name, Buffer.from(text)).toString("hex");

describe("bundle file hashes", () => {
  it("hash JSON data over its content: key order and whitespace do not matter", () => {
    const a = digest("data.json", '{"b": [1, 2, {"y": true, "x": null}], "a": "s"}');
    const b = digest("x/data.json", '{\n  "a":"s",\n  "b":[1,2,{"x":null,"y":true}]\n}\n');
    assert.equal(a, b);
    // The canonical form: sorted keys, no whitespace, as OPA's hasher writes it.
    assert.equal(a, sha256('{"a":"s","b":[1,2,{"x":null,"y":true}]}'));
  });

  it("change when a value changes, and keep numbers as written", () => {
    assert.notEqual(digest("data.json", '{"a": 1}'), digest("data.json", '{"a": 2}'));
    assert.notEqual(digest("data.json", '{"a": 1}'), digest("data.json", '{"a": 1.0}'));
    assert.equal(digest("data.json", '{"a": 1.50}'), sha256('{"a":1.50}'));
    assert.equal(
      digest("data.json", '{"n": 123.45678911111111111111111111111}'),
      sha256('{"n":123.45678911111111111111111111111}'),
    );
  });

  it("hash YAML data, .manifest and signatures.json by content too", () => {
    const json = digest("data.json", '{"a": {"b": [1, "two"]}}');
    assert.equal(digest("data.yaml", "a:\n  b:\n    - 1\n    - two\n"), json);
    assert.equal(
      digest(".manifest", '{"roots": ["a"], "revision": "r"}'),
      sha256('{"revision":"r","roots":["a"]}'),
    );
    // OPA decides by base name: `signatures.json`, not `.signatures.json` (never hashed).
    assert.ok(isStructuredDoc("dir/signatures.json"));
    assert.ok(!isStructuredDoc(".signatures.json"));
  });

  it("hash other files over their raw bytes (data.yml and policies included, as in OPA)", () => {
    const text = "package x\n\np := 1\n";
    assert.equal(digest("x/policy.rego", text), sha256(text));
    assert.equal(digest("data.yml", "a: 1\n"), sha256("a: 1\n"));
    assert.equal(digest("other.json", '{"b":1, "a":2}'), sha256('{"b":1, "a":2}'));
  });

  it("keep the last of repeated keys and sort keys by their UTF-8 bytes", () => {
    assert.equal(digest("data.json", '{"a": 1, "a": 2}'), sha256('{"a":2}'));
    // U+FF5E sorts before U+1F600 in UTF-8 (EF.. < F0..) but after it in UTF-16.
    const value = parseGoJson('{"\u{1F600}": 1, "\uFF5E": 2}');
    assert.equal(goMarshal(value, false), '{"\uFF5E":2,"\u{1F600}":1}');
  });

  it("escape strings as Go does: HTML characters only when marshalling payloads", () => {
    assert.equal(canonicalBytes(parseStructured(Buffer.from('"<a>&"'))).toString(), '"<a>&"');
    assert.equal(jsonString("<a>&", true), '"\\u003ca\\u003e\\u0026"');
    assert.equal(jsonString("\u2028\b\f\u0001\n", false), '"\\u2028\\b\\f\\u0001\\n"');
    assert.equal(jsonString("\ud800x", false), '"\ufffdx"');
  });

  it("refuse a hashing algorithm OPA does not know, and support the ones it does", () => {
    assert.throws(() => hashBundleFile("a", Buffer.from("x"), "SHA-3"), {
      message: "unsupported hashing algorithm: SHA-3",
    });
    assert.equal(
      hashBundleFile("a", Buffer.from("x"), "SHA-512-256").toString("hex"),
      createHash("sha512-256").update("x").digest("hex"),
    );
  });

  it("parse JSON numbers as their text", () => {
    const v = parseGoJson("[1e3, -0.5]") as JsonNumber[];
    assert.deepEqual(
      v.map((n) => n.text),
      ["1e3", "-0.5"],
    );
    assert.throws(() => parseGoJson("{"));
    assert.throws(() => parseGoJson("[1,]"));
    assert.throws(() => parseGoJson("01"));
  });

  it("words malformed JSON with the offset of the problem", () => {
    const cases: [string, string][] = [
      ["[1 2]", "invalid character '2' at offset 3"],
      ["[1", "invalid character (end of input) at offset 2"],
      ['{"a":1 }x', "invalid character 'x' after top-level value at offset 8"],
      ['{"a" 1}', "invalid character '1' at offset 5"],
      ["{1:2}", "invalid character '1' at offset 1"],
      ["[-]", "invalid character '-' at offset 1"],
      ["[1.]", "invalid character '.' at offset 2"],
      ["tru", "invalid character 't' at offset 0"],
      ['"a\\q"', "invalid character in string literal at offset 0"],
      ['"a\u0001"', "invalid character in string literal at offset 2"],
      ['"abc', "invalid character (unterminated string) at offset 4"],
      ["[".repeat(10_001), "invalid character (nesting too deep) at offset 10000"],
    ];
    for (const [text, message] of cases)
      assert.throws(() => parseGoJson(text), { name: "GoJsonSyntaxError", message }, text);
  });
});
