import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { RegoObject, type Value } from "../value/value.js";
import { lookupBuiltin } from "./registry.js";
import type { BuiltinContext } from "./registry-types.js";

function context(): BuiltinContext {
  return {
    nowNs: 0n,
    cache: new Map(),
    print: () => {},
    strict: true,
    checkCancel: () => {},
    maxCollectionSize: 1_000_000,
  };
}

function call(name: string, ctx: BuiltinContext, ...args: Value[]): Value | undefined {
  const def = lookupBuiltin(name);
  assert.ok(def, `builtin ${name} is registered`);
  return def.impl(args, ctx);
}

function fields(v: Value | undefined): Record<string, Value> {
  assert.ok(v instanceof RegoObject);
  return Object.fromEntries([...v.entries()].map(([k, x]) => [String(k), x]));
}

describe("uuid builtins", () => {
  it("uuid.rfc4122 gives a version 4 UUID, the same for one key within a query", () => {
    const ctx = context();
    const a = call("uuid.rfc4122", ctx, "key");
    assert.match(
      String(a),
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    assert.equal(call("uuid.rfc4122", ctx, "key"), a);
    assert.notEqual(call("uuid.rfc4122", ctx, "other"), a);
    assert.notEqual(call("uuid.rfc4122", context(), "key"), a);
    assert.equal(lookupBuiltin("uuid.rfc4122")?.nondeterministic, true);
  });

  it("uuid.parse reads version, variant and the time fields of a version 2 UUID", () => {
    const want = {
      variant: "RFC4122",
      version: 2,
      time: 1693566990121469600n,
      clocksequence: 12800,
      nodeid: "32-50-96-b3-9f-47",
      macvariables: "local:unicast",
      domain: "Person",
      id: 1000,
    };
    const ctx = context();
    assert.deepEqual(fields(call("uuid.parse", ctx, "000003e8-48b9-21ee-b200-325096b39f47")), want);
    assert.deepEqual(
      fields(call("uuid.parse", ctx, "urn:uuid:000003e8-48b9-21ee-b200-325096b39f47")),
      want,
    );
  });

  it("uuid.parse accepts braced and unhyphenated forms", () => {
    const ctx = context();
    assert.deepEqual(fields(call("uuid.parse", ctx, "{00000000-0000-4000-8000-000000000000}")), {
      variant: "RFC4122",
      version: 4,
    });
    assert.deepEqual(fields(call("uuid.parse", ctx, "6bea8ef2d3d33cd184e09bab06a52ece")), {
      variant: "RFC4122",
      version: 3,
    });
  });

  it("uuid.parse is undefined for text that is not a UUID, and a type error for non-strings", () => {
    const ctx = context();
    assert.equal(call("uuid.parse", ctx, "00000000-0000-4000-8000-00000000000"), undefined);
    assert.equal(call("uuid.parse", ctx, "00000000x0000-4000-8000-000000000000"), undefined);
    assert.throws(() => call("uuid.parse", ctx, 123), {
      name: "BuiltinTypeError",
      message: "uuid.parse: operand 1 must be string but got number",
    });
  });
});
