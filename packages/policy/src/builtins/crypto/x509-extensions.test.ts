import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ipString } from "./x509-extensions.js";

describe("ipString", () => {
  test("prints addresses as Go's net.IP does", () => {
    const ip = (hex: string) => ipString(Buffer.from(hex, "hex"));
    assert.equal(ip("7f000001"), "127.0.0.1");
    assert.equal(ip("00000000000000000000ffff0a000001"), "10.0.0.1");
    assert.equal(ip("20010db8000000000000000000000001"), "2001:db8::1");
    assert.equal(ip("00000000000000000000000000000001"), "::1");
    assert.equal(ip("20010db8000100000001000000000001"), "2001:db8:1:0:1::1");
    assert.equal(ip("fe800000000000000000000000000000"), "fe80::");
  });
});
