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

describe("units.parse", () => {
  it("multiplies exactly, so decimal fractions land on the exact value", () => {
    assert.equal(call("units.parse", "500m"), 0.5);
    assert.equal(call("units.parse", "0.0005K"), 0.5);
    assert.equal(call("units.parse", "0.0000005M"), 0.5);
    assert.equal(call("units.parse", "1.1Ki"), 1126.4);
    assert.equal(call("units.parse", "-3.5E2m"), -0.35);
    assert.equal(call("units.parse", "7.8E-1"), 0.78);
    // Non-integers come out rounded to ten decimals.
    assert.equal(call("units.parse", "1.23456789012345"), 1.2345678901);
    assert.equal(call("units.parse", "1e-11"), 0);
  });

  it("tells milli from mega and keeps big results exact", () => {
    assert.equal(call("units.parse", "100m"), 0.1);
    assert.equal(call("units.parse", "100M"), 100000000);
    assert.equal(call("units.parse", "100mi"), 104857600);
    assert.equal(call("units.parse", "10KI"), 10240);
    assert.equal(call("units.parse", "10e"), 10000000000000000000n);
    assert.equal(call("units.parse", "10Ei"), 11529215046068469760n);
    assert.equal(call("units.parse", "5E"), 5000000000000000000n);
    assert.equal(call("units.parse", '"100TI"'), 109951162777600);
    assert.equal(call("units.parse", "2.5e3K"), 2500000);
  });

  it("reports missing amounts, bad numbers, spaces and unknown units", () => {
    // OPA names the builtin twice: the message names it, and the builtin wrapper adds it again.
    const bad = (s: string, message: string) =>
      assert.throws(() => call("units.parse", s), {
        name: "BuiltinError",
        message: `units.parse: units.parse: ${message}`,
      });
    bad("", "no amount provided");
    bad("G", "no amount provided");
    bad("0.0.0", "could not parse amount to a number");
    bad(".5.2", "could not parse amount to a number");
    bad("100 k", "spaces not allowed in resource strings");
    bad("1x", "unit x not recognized");
    bad("e5", "could not parse amount to a number");
    bad("1e1234567K", "exponent too large");
    assert.throws(() => call("units.parse", 1), {
      message: "units.parse: operand 1 must be string but got number",
    });
  });
});

describe("units.parse_bytes", () => {
  it("ignores case, truncates to an integer and keeps big results exact", () => {
    assert.equal(call("units.parse_bytes", "10KB"), 10000);
    assert.equal(call("units.parse_bytes", "10Kib"), 10240);
    assert.equal(call("units.parse_bytes", "1.1KiB"), 1126);
    assert.equal(call("units.parse_bytes", "1e-2KB"), 10);
    assert.equal(call("units.parse_bytes", "3.2E2MiB"), 335544320);
    assert.equal(call("units.parse_bytes", ".5KB"), 500);
    assert.equal(call("units.parse_bytes", "10eib"), 11529215046068469760n);
    assert.equal(call("units.parse_bytes", '"100TIB"'), 109951162777600);
  });

  it("reports missing amounts, bad numbers, spaces and unknown units", () => {
    const bad = (s: string, message: string) =>
      assert.throws(() => call("units.parse_bytes", s), {
        name: "BuiltinError",
        message: `units.parse_bytes: units.parse_bytes: ${message}`,
      });
    bad("foo", "no byte amount provided");
    bad("0.0.0", "could not parse byte amount to a number");
    bad(" 327MiB ", "spaces not allowed in resource strings");
    bad("1kbx", "byte unit kbx not recognized");
  });
});
