/** Mask rules on events: OPA's erase and upsert semantics, nested paths, arrays, bad rules. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { DecisionEvent } from "../../../src/plugins/decision-logs/decision-event.js";
import {
  applyMaskRules,
  MaskRuleError,
  parseMaskRules,
} from "../../../src/plugins/decision-logs/mask-rules.js";

function event(input: unknown, result?: unknown): DecisionEvent {
  return {
    labels: { id: "x" },
    decision_id: "d",
    input,
    result,
    timestamp: "2026-01-01T00:00:00Z",
  };
}

function masked(rules: unknown, input: unknown, result?: unknown): DecisionEvent {
  const e = event(input, result);
  applyMaskRules(parseMaskRules(rules), e);
  return e;
}

describe("mask rules", () => {
  it("erases pointers and lists them in erased", () => {
    const e = masked(["/input/password", "/input/ssn"], {
      name: "bob",
      password: "passw0rd",
      ssn: "1",
    });
    assert.deepEqual(e.input, { name: "bob" });
    assert.deepEqual(e.erased, ["/input/password", "/input/ssn"]);
    assert.equal(e.masked, undefined);
  });

  it("ignores pointers to undefined data", () => {
    const e = masked(["/input/name/first", "/input/missing", "/result/x"], { name: "bob" });
    assert.deepEqual(e.input, { name: "bob" });
    assert.equal(e.erased, undefined);
  });

  it("erases nested values and array elements", () => {
    const e = masked(["/input/user/secret", "/input/users/0/name", "/input/tags/1"], {
      user: { name: "a", secret: "s" },
      users: [{ name: "n", id: 1 }],
      tags: ["a", "b", "c"],
    });
    assert.deepEqual(e.input, { user: { name: "a" }, users: [{ id: 1 }], tags: ["a", "c"] });
    assert.deepEqual(e.erased, ["/input/user/secret", "/input/users/0/name", "/input/tags/1"]);
  });

  it("leaves out-of-range and non-numeric array indexes alone", () => {
    const e = masked(["/input/tags/5", "/input/tags/x", "/input/tags/-1"], { tags: ["a"] });
    assert.deepEqual(e.input, { tags: ["a"] });
    assert.equal(e.erased, undefined);
  });

  it("erases the whole input or result", () => {
    const e = masked(["/input", "/result"], { a: 1 }, true);
    assert.equal(e.input, undefined);
    assert.equal(e.result, undefined);
    assert.deepEqual(e.erased, ["/input", "/result"]);
  });

  it("upserts values, creating missing objects, and lists them in masked", () => {
    const e = masked(
      [
        { op: "upsert", path: "/input/password", value: "**REDACTED**" },
        { op: "upsert", path: "/input/new/deep/key", value: { x: [1] } },
        { op: "upsert", path: "/input/list/1", value: 0 },
        { op: "remove", path: "/input/drop" },
      ],
      { password: "p", list: [1, 2], drop: true },
    );
    assert.deepEqual(e.input, {
      password: "**REDACTED**",
      new: { deep: { key: { x: [1] } } },
      list: [1, 0],
    });
    assert.deepEqual(e.masked, ["/input/password", "/input/new/deep/key", "/input/list/1"]);
    assert.deepEqual(e.erased, ["/input/drop"]);
  });

  it("does not upsert past the end of an array or below a scalar", () => {
    const e = masked(
      [
        { op: "upsert", path: "/input/list/5", value: 1 },
        { op: "upsert", path: "/input/name/first", value: 1 },
      ],
      { list: [1], name: "bob" },
    );
    assert.deepEqual(e.input, { list: [1], name: "bob" });
    assert.equal(e.masked, undefined);
  });

  it("upserts into the result without touching the caller's document", () => {
    const result = { allow: true, reason: "secret" };
    const e = event({ a: 1 }, result);
    applyMaskRules(parseMaskRules([{ op: "upsert", path: "/result/reason", value: "x" }]), e);
    assert.deepEqual(e.result, { allow: true, reason: "x" });
    assert.deepEqual(result, { allow: true, reason: "secret" });
  });

  it("does nothing to an event without input", () => {
    const e = masked([{ op: "upsert", path: "/input/a", value: 1 }, "/input"], undefined);
    assert.equal(e.input, undefined);
    assert.equal(e.masked, undefined);
    assert.equal(e.erased, undefined);
  });

  it("looks keys up in their escaped form, as OPA does", () => {
    // OPA escapes each segment (url.PathEscape) and matches the escaped text.
    const e = masked(["/input/a b", "/input/a%20b"], { "a b": 1, "a%20b": 2 });
    assert.deepEqual(e.input, { "a b": 1 });
    assert.deepEqual(e.erased, ["/input/a%20b"]);
  });

  it("refuses rules OPA refuses", () => {
    const cases: [unknown, string][] = [
      [{ a: 1 }, 'unexpected rule format {"a":1}'],
      ["/input/x", "unexpected rule format /input/x"],
      [[""], "mask must be non-empty"],
      [["input/x"], "mask must be slash-prefixed"],
      [["/labels/id"], "mask prefix not allowed: labels"],
      [["/input/%zz"], 'invalid URL escape "%zz"'],
      [[{ op: "upsert" }], "mask must be non-empty"],
      [[{ path: "/input/x" }], "mask op is not supported: "],
      [[{ op: "rename", path: "/input/x" }], "mask op is not supported: rename"],
      [[{ op: 1, path: "/input/x" }], 'invalid "op" value: 1'],
      [[{ op: "remove", path: 2 }], 'invalid "path" value: 2'],
      [[7], "invalid mask rule format encountered: 7"],
    ];
    for (const [rules, message] of cases) {
      assert.throws(
        () => parseMaskRules(rules),
        (e: unknown) => e instanceof MaskRuleError && e.message === message,
        JSON.stringify(rules),
      );
    }
  });
});
