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

describe("semver builtins", () => {
  it("semver.is_valid accepts MAJOR.MINOR.PATCH with pre-release and build parts", () => {
    assert.equal(call("semver.is_valid", "1.0.0"), true);
    assert.equal(call("semver.is_valid", "1.0.0-rc.1+build.5"), true);
    assert.equal(call("semver.is_valid", "1.0"), false);
    assert.equal(call("semver.is_valid", "v1.2.3"), true);
    assert.equal(call("semver.is_valid", "1.0.0-"), true);
    assert.equal(call("semver.is_valid", "1.0.0-a..b"), false);
    assert.equal(call("semver.is_valid", "1.x.0"), false);
    assert.equal(call("semver.is_valid", 1), false);
  });

  it("semver.compare follows SemVer 2.0 precedence", () => {
    const cmp = (a: string, b: string) => call("semver.compare", a, b);
    assert.equal(cmp("1.0.0", "2.0.0"), -1);
    assert.equal(cmp("2.0.0", "1.0.0"), 1);
    assert.equal(cmp("1.0.0", "1.0.0"), 0);
    assert.equal(cmp("1.10.0", "1.9.0"), 1);
    assert.equal(cmp("1.0.0-alpha", "1.0.0"), -1);
    assert.equal(cmp("1.0.0-alpha.1", "1.0.0-alpha.beta"), -1);
    assert.equal(cmp("1.0.0-2", "1.0.0-10"), -1);
    assert.equal(cmp("1.0.0-alpha", "1.0.0-alpha.1"), -1);
    assert.equal(cmp("1.0.0+b", "1.0.0+a"), 0);
  });

  it("semver.compare names the operand that is not a version", () => {
    assert.throws(() => call("semver.compare", "1", "1.0.0"), {
      name: "BuiltinError",
      message: 'semver.compare: operand 1: string "1" is not a valid SemVer',
    });
    assert.throws(() => call("semver.compare", "1.0.0", "1"), {
      message: 'semver.compare: operand 2: string "1" is not a valid SemVer',
    });
    assert.throws(() => call("semver.compare", 1, "1.0.0"), {
      name: "BuiltinTypeError",
      message: "semver.compare: operand 1 must be string but got number",
    });
  });
});
