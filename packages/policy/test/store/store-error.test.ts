/** Store refusals reach HTTP only through error-response.ts, with OPA's status and code. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { RegoError } from "../../src/errors.js";
import { toHttpError } from "../../src/server/error-response.js";
import { StoreError, type StoreErrorCode } from "../../src/store/store-error.js";

describe("store errors over HTTP", () => {
  const cases: [StoreErrorCode, number, string][] = [
    ["not_found", 404, "resource_not_found"],
    ["write_conflict", 404, "resource_conflict"],
    ["invalid_patch", 400, "invalid_parameter"],
    ["invalid_write", 400, "invalid_parameter"],
    ["invalid_operation", 400, "invalid_operation"],
  ];
  for (const [code, status, apiCode] of cases) {
    it(`maps ${code} to ${status} ${apiCode}`, () => {
      const answer = toHttpError(new StoreError(code, "storage says no"));
      assert.deepEqual(answer, { status, body: { code: apiCode, message: "storage says no" } });
    });
  }

  it("lists the engine errors behind a refused write", () => {
    const cause = new RegoError("rego_parse_error", "unexpected eof token", {
      file: "p.rego",
      row: 3,
      col: 1,
    });
    const answer = toHttpError(new StoreError("invalid_write", "error(s) occurred", [cause]));
    assert.deepEqual(answer.body?.errors, [
      {
        code: "rego_parse_error",
        message: "unexpected eof token",
        location: { file: "p.rego", row: 3, col: 1 },
      },
    ]);
  });
});
