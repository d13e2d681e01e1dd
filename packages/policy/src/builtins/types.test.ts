import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { callBuiltin, obj, set } from "./testing/call-builtin.js";

const samples: [string, unknown][] = [
  ["null", null],
  ["boolean", false],
  ["number", -42.5],
  ["number", 10n ** 30n],
  ["string", "OPA"],
  ["array", [1, 2]],
  ["set", set(1)],
  ["object", obj([1, 2])],
];

describe("type predicates and type_name", () => {
  test("type_name names each kind", () => {
    for (const [kind, value] of samples) assert.equal(callBuiltin("type_name", [value]), kind);
  });

  test("each is_<kind> is true only for its kind and false otherwise", () => {
    const kinds = ["null", "boolean", "number", "string", "array", "set", "object"];
    for (const kind of kinds) {
      for (const [valueKind, value] of samples) {
        assert.equal(
          callBuiltin(`is_${kind}`, [value]),
          valueKind === kind,
          `is_${kind}(${valueKind})`,
        );
      }
    }
  });
});
