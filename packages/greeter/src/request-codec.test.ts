import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { decodeGreetRequest } from "./request-codec.js";

const decode = (hex: string) => decodeGreetRequest(Buffer.from(hex, "hex"));

describe("decodeGreetRequest", () => {
  it("reads the name, and an empty message as the empty name", () => {
    assert.deepEqual(decode("0a03416e6e"), { name: "Ann" });
    assert.deepEqual(decode(""), { name: "" });
    assert.deepEqual(decode("0a06c3a96ce28093"), { name: "él–" });
  });

  it("skips unknown varint, fixed64, length-delimited and fixed32 fields", () => {
    const unknown = "10ff01" + "190102030405060708" + "22024142" + "2d01020304";
    assert.deepEqual(decode(`${unknown}0a0142`), { name: "B" });
  });

  it("names invalid UTF-8", () => {
    assert.deepEqual(decode("0a03fffe41"), { name: "", problem: "name is not valid UTF-8" });
  });

  it("names a truncated message, in a length, a varint or a fixed field", () => {
    for (const hex of ["0a0541", "0a", "0a80", "19010203", "2d01"]) {
      assert.deepEqual(decode(hex), { name: "", problem: "request message is truncated" }, hex);
    }
  });

  it("names malformed input: field 0, groups, a varint over 10 bytes", () => {
    assert.match(decode("0001").problem ?? "", /malformed: field number 0/);
    assert.match(decode("1314").problem ?? "", /malformed: unsupported wire type 3/);
    assert.match(decode(`10${"ff".repeat(10)}01`).problem ?? "", /longer than 10 bytes/);
  });
});
