/**
 * Runs the whole OPA compliance suite and holds the pass count at or above the floor
 * recorded in compliance-floor.json.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { skipUnlessProvided } from "@quintet/kit/testing";
import { loadCases } from "./cases.js";
import { runCase } from "./run-case.js";
import { formatFailures, runSuite } from "./suite.js";

const here = dirname(fileURLToPath(import.meta.url));
const packageDir = resolve(here, "../../..");
const suiteDir = resolve(packageDir, "../../../shared/opa-compliance");
const floor = (
  JSON.parse(readFileSync(resolve(packageDir, "compliance-floor.json"), "utf8")) as {
    passed: number;
  }
).passed;

test("the OPA compliance suite passes at least as many cases as the recorded floor", {
  skip: skipUnlessProvided(
    existsSync(suiteDir) ? undefined : `compliance suite not found at ${suiteDir}`,
  ),
  timeout: 300_000,
}, () => {
  const summary = runSuite(loadCases([suiteDir]));
  assert.ok(
    summary.passed >= floor,
    `${summary.passed} passed, below the floor of ${floor}\n${formatFailures(summary)}`,
  );
});

test("a case whose bindings differ from want_result fails with a reason", () => {
  const outcome = runCase({
    note: "runner/mismatch",
    modules: ["package t\np := 1\n"],
    query: "data.t.p = x",
    want_result: [{ x: 2 }],
  });
  assert.equal(outcome.passed, false);
  assert.match(outcome.reason ?? "", /want/);
});

test("a case expecting an error passes only on the matching code and message", () => {
  const base = {
    note: "runner/error",
    modules: ["package t\np := 1 / 0\n"],
    query: "data.t.p = x",
    strict_error: true,
  };
  assert.equal(
    runCase({ ...base, want_error_code: "eval_builtin_error", want_error: "divide by zero" })
      .passed,
    true,
  );
  assert.equal(runCase({ ...base, want_error_code: "eval_conflict_error" }).passed, false);
});

test("sort_bindings compares array bindings without regard to order", () => {
  const c = {
    note: "runner/sorted",
    modules: ["package t\np contains 2\np contains 1\n"],
    query: "x = [y | data.t.p[y]]",
  };
  assert.equal(runCase({ ...c, want_result: [{ x: [2, 1] }], sort_bindings: true }).passed, true);
  assert.equal(runCase({ ...c, want_result: [{ x: [2, 1] }] }).passed, false);
});
