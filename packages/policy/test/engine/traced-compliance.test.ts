/**
 * Tracing changes no answer: every OPA compliance case has the same outcome with a tracer
 * attached (coverage, profiler and an event counter listening) as without one.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { skipUnlessProvided } from "@quintet/kit/testing";
import { CoverageCollector } from "../../src/trace/coverage.js";
import { Profiler } from "../../src/trace/profiler.js";
import { EventTracer } from "../../src/trace/tracer.js";
import { loadCases } from "../compliance/cases.js";
import { runCase } from "../compliance/run-case.js";

const here = dirname(fileURLToPath(import.meta.url));
const suiteDir = resolve(here, "../../../../../../shared/opa-compliance");

test("compliance cases have the same outcome traced and untraced", {
  skip: skipUnlessProvided(
    existsSync(suiteDir) ? undefined : `compliance suite not found at ${suiteDir}`,
  ),
  timeout: 600_000,
}, () => {
  const differ: string[] = [];
  let events = 0;
  for (const { case: testCase } of loadCases([suiteDir])) {
    const plain = runCase(testCase);
    const coverage = new CoverageCollector();
    const tracer = new EventTracer([
      coverage.listener,
      new Profiler().listener,
      () => {
        events++;
      },
    ]);
    const traced = runCase(testCase, { tracer });
    // A case that ran out of its time bound under tracing says nothing about answers.
    if (traced.passed !== plain.passed && !/eval_cancel_error/.test(traced.reason ?? ""))
      differ.push(`${testCase.note}: ${traced.reason ?? "passed only when traced"}`);
  }
  assert.ok(events > 0);
  assert.deepEqual(differ, []);
});
