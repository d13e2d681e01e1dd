import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { addressGroup } from "./connection-limits.js";

describe("addressGroup", () => {
  it("counts IPv4 per address, unwrapping IPv4-mapped IPv6", () => {
    assert.equal(addressGroup("203.0.113.5"), "203.0.113.5");
    assert.equal(addressGroup("::ffff:203.0.113.5"), "203.0.113.5");
  });

  it("counts IPv6 per /64, however the address is written", () => {
    assert.equal(addressGroup("2001:db8:1:2:aaaa::1"), "2001:db8:1:2::/64");
    assert.equal(addressGroup("2001:0db8:0001:0002:ffff:0:0:9"), "2001:db8:1:2::/64");
    assert.equal(addressGroup("2001:db8::1"), "2001:db8:0:0::/64");
    assert.equal(addressGroup("::1"), "0:0:0:0::/64");
    assert.notEqual(addressGroup("2001:db8:1:3::1"), addressGroup("2001:db8:1:2::1"));
  });
});
