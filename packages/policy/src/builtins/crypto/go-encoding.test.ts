import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { base64UrlDecodeLenient, goBase64Decode, pemDecode } from "./go-encoding.js";

describe("goBase64Decode", () => {
  test("decodes padded standard base64 and skips line breaks", () => {
    assert.equal(goBase64Decode("aGVs\nbG8=").toString(), "hello");
    assert.equal(goBase64Decode("").length, 0);
  });

  test("names the first bad byte as Go does", () => {
    assert.throws(() => goBase64Decode("foobar"), {
      message: "illegal base64 data at input byte 4",
    });
    assert.throws(() => goBase64Decode("ab^d"), { message: "illegal base64 data at input byte 2" });
    assert.throws(() => goBase64Decode("a==="), { message: "illegal base64 data at input byte 1" });
    assert.throws(() => goBase64Decode("aGk=x"), {
      message: "illegal base64 data at input byte 4",
    });
  });

  test("the lenient URL form adds missing padding but refuses impossible lengths", () => {
    assert.equal(base64UrlDecodeLenient("aGk").toString(), "hi");
    assert.throws(() => base64UrlDecodeLenient("aGVsb"), {
      message: "illegal base64url string: aGVsb",
    });
  });
});

describe("pemDecode", () => {
  const block = "-----BEGIN THING-----\naGVsbG8=\n-----END THING-----\n";

  test("returns the first block and the text after its END line", () => {
    const { block: b, rest } = pemDecode(`junk\n${block}tail`);
    assert.equal(b?.type, "THING");
    assert.equal(b?.bytes.toString(), "hello");
    assert.equal(rest, "tail");
  });

  test("finds nothing in text without a block or with a corrupt body", () => {
    assert.equal(pemDecode("no pem here").block, undefined);
    assert.equal(pemDecode("-----BEGIN THING-----\n#!!\n-----END THING-----\n").block, undefined);
  });
});
