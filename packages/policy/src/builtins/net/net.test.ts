import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { BuiltinError } from "../../errors.js";
import { RegoObject, RegoSet, toJSON, type Value } from "../../value/value.js";
import { lookupBuiltin } from "../registry.js";
import { testContext } from "../testing/call-builtin.js";

const ctx = testContext();

/** Calls a builtin and returns its result as plain JSON (sets as sorted arrays). */
function call(name: string, ...args: Value[]): unknown {
  const def = lookupBuiltin(name);
  assert.ok(def, `${name} is registered`);
  const out = def.impl(args, ctx);
  return out === undefined ? undefined : toJSON(out);
}

describe("net.cidr_contains", () => {
  it("checks addresses and whole subnets, IPv4 and IPv6", () => {
    assert.equal(call("net.cidr_contains", "10.0.0.0/8", "10.1.0.0/24"), true);
    assert.equal(call("net.cidr_contains", "10.0.0.0/8", "10.1.2.3"), true);
    assert.equal(call("net.cidr_contains", "10.0.0.0/8", "192.168.1.1"), false);
    assert.equal(call("net.cidr_contains", "172.17.0.0/24", "172.17.0.0/16"), false);
    assert.equal(
      call("net.cidr_contains", "2001:4860:4860::8888/32", "2001:4860:4860:1234::8888/40"),
      true,
    );
    assert.equal(call("net.cidr_contains", "2001:4860::/96", "2001:4860::/32"), false);
    assert.equal(call("net.cidr_contains", "10.0.0.0/8", "::ffff:10.0.0.1"), true);
    assert.equal(call("net.cidr_overlap", "10.0.0.0/8", "10.1.2.3"), true);
  });
  it("rejects malformed CIDRs with Go's message", () => {
    assert.throws(() => call("net.cidr_contains", "not-a-cidr", "10.1.2.3"), {
      message: "net.cidr_contains: invalid CIDR address: not-a-cidr",
    });
    assert.throws(() => call("net.cidr_contains", "192.168.1.0/28", "not-a-cidr"), BuiltinError);
    assert.throws(() => call("net.cidr_contains", "1.01.1.1/8", "1.1.1.1"), BuiltinError);
  });
});

describe("net.cidr_intersects and net.cidr_is_valid", () => {
  it("detects overlapping networks", () => {
    assert.equal(call("net.cidr_intersects", "192.168.1.0/25", "192.168.1.64/25"), true);
    assert.equal(call("net.cidr_intersects", "192.168.1.0/24", "192.168.2.0/24"), false);
    assert.equal(
      call("net.cidr_intersects", "fd1e:5bfe:8af3:9ddc::/64", "fd1e:5bfe:8af3:9ddc:1111::/72"),
      true,
    );
  });
  it("validates CIDR text only", () => {
    assert.equal(call("net.cidr_is_valid", "192.168.1.0/24"), true);
    assert.equal(call("net.cidr_is_valid", "2002::1234:abcd:ffff:c0a8:101/64"), true);
    assert.equal(call("net.cidr_is_valid", "192.168.1.2"), false);
    assert.equal(call("net.cidr_is_valid", "10.0.0.0/33"), false);
    assert.equal(call("net.cidr_is_valid", ""), false);
  });
});

describe("net.cidr_contains_matches", () => {
  it("pairs the keys of matching networks and addresses", () => {
    assert.deepEqual(call("net.cidr_contains_matches", "1.1.1.0/24", "1.1.1.1"), [
      ["1.1.1.0/24", "1.1.1.1"],
    ]);
    assert.deepEqual(
      call("net.cidr_contains_matches", ["1.1.2.0/24", "1.1.1.0/24"], ["1.1.1.1", "1.1.2.1"]),
      [
        [0, 1],
        [1, 0],
      ],
    );
    const cidrs = RegoObject.fromEntries([
      ["k1", "1.1.1.1/24"],
      ["k2", ["1.1.1.2/24", 1]],
    ]);
    assert.deepEqual(call("net.cidr_contains_matches", cidrs, "1.1.1.128"), [
      ["k1", "1.1.1.128"],
      ["k2", "1.1.1.128"],
    ]);
  });
  it("rejects empty tuples", () => {
    assert.throws(() => call("net.cidr_contains_matches", "1.1.1.0/24", RegoSet.of([[]])), {
      message: "net.cidr_contains_matches: operand 2: element must be string or non-empty array",
    });
  });
});

describe("net.cidr_expand and net.cidr_merge", () => {
  it("lists every address of a network", () => {
    assert.deepEqual(call("net.cidr_expand", "192.168.1.1/30"), [
      "192.168.1.0",
      "192.168.1.1",
      "192.168.1.2",
      "192.168.1.3",
    ]);
    assert.deepEqual(call("net.cidr_expand", "fe80::/127"), ["fe80::", "fe80::1"]);
    assert.throws(() => call("net.cidr_expand", "192.168.1.1/33"), {
      message: "net.cidr_expand: invalid CIDR address: 192.168.1.1/33",
    });
  });
  it("merges adjacent and nested networks per family", () => {
    assert.deepEqual(call("net.cidr_merge", ["192.0.128.0/24", "192.0.129.0/24"]), [
      "192.0.128.0/23",
    ]);
    assert.deepEqual(
      call("net.cidr_merge", ["192.0.2.112/30", "192.0.2.116/32", "192.0.2.118/31"]),
      ["192.0.2.112/30", "192.0.2.116/32", "192.0.2.118/31"],
    );
    assert.deepEqual(
      call("net.cidr_merge", [
        "fe80::/120",
        "192.0.2.0/24",
        "192.0.3.0/24",
        "192.0.4.0/25",
        "192.0.4.128/25",
      ]),
      ["192.0.2.0/23", "192.0.4.0/24", "fe80::/120"],
    );
    assert.deepEqual(call("net.cidr_merge", ["2601:600:8a80:207e:a57d:7567:e2c9:e7b3/64"]), [
      "2601:600:8a80:207e::/64",
    ]);
    assert.deepEqual(call("net.cidr_merge", ["192.0.2.112", "192.0.2.116/31"]), ["192.0.2.0/24"]);
    assert.deepEqual(call("net.cidr_merge", []), []);
  });
  it("requires a prefix on IPv6 addresses", () => {
    assert.throws(() => call("net.cidr_merge", ["2601:600::1"]), {
      message: "net.cidr_merge: IPv6 invalid: needs prefix length",
    });
  });
});

describe("net.lookup_ip_addr", () => {
  it("returns literal addresses as they are", () => {
    assert.deepEqual(call("net.lookup_ip_addr", "10.0.0.0"), ["10.0.0.0"]);
    assert.deepEqual(call("net.lookup_ip_addr", "::"), ["::"]);
  });
  it("fails with a builtin error for names it cannot resolve", () => {
    assert.throws(() => call("net.lookup_ip_addr", "no-such-host.invalid"), BuiltinError);
  });
});
