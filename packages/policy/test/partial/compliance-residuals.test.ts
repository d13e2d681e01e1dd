/**
 * Partial evaluation over OPA's whole compliance suite: for every case that expects a
 * result, the query is partially evaluated with the input unknown, and its residuals
 * (with their support modules) evaluated on the case's input must answer as the query
 * itself does; again with every package's rules kept out of inlining. No case may end in
 * an internal error, and every residual must compile.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { skipUnlessProvided } from "@quintet/kit/testing";
import { PolicyEngine } from "../../src/engine.js";
import { RegoError, RegoErrorList } from "../../src/errors.js";
import type { PartialResult } from "../../src/partial/partial-query.js";
import { bodyText, moduleText } from "../../src/partial/rego-text.js";
import { fromJSON, type Value } from "../../src/value/value.js";
import { type ComplianceCase, loadCases } from "../compliance/cases.js";

const here = dirname(fileURLToPath(import.meta.url));
const suiteDir = resolve(here, "../../../../../../shared/opa-compliance");

function engineOf(c: ComplianceCase, support: string[] = []): PolicyEngine {
  const e = new PolicyEngine({ checkDataConflicts: false });
  (c.modules ?? []).forEach((m, i) => {
    e.addModule(`m${i}.rego`, m);
  });
  support.forEach((m, i) => {
    e.addModule(`support${i}.rego`, m);
  });
  if (c.data) e.addData([], c.data);
  e.compile();
  return e;
}

function holds(e: PolicyEngine, query: string, input: Value | undefined): boolean {
  return e.query(query, { input }).some((r) => r.expressions.every((x) => x.value !== false));
}

function isInternal(e: unknown): boolean {
  if (e instanceof RegoErrorList) return e.errors.some((x) => x.code === "internal_error");
  return !(e instanceof RegoError) || e.code === "internal_error";
}

function packages(c: ComplianceCase): string[] {
  const names = (c.modules ?? []).map((m) => /package\s+([\w.]+)/.exec(m)?.[1]);
  return [...new Set(names.filter((n): n is string => n !== undefined))].map((p) => `data.${p}`);
}

interface Tally {
  checked: number;
  failures: string[];
}

function check(c: ComplianceCase, disableInlining: boolean, tally: Tally): void {
  let e: PolicyEngine;
  let expected: boolean;
  const input = c.input === undefined ? undefined : fromJSON(c.input);
  try {
    e = engineOf(c);
    expected = holds(e, c.query, input);
  } catch {
    return; // Cases the engine itself refuses are the compliance suite's business.
  }
  tally.checked++;
  let result: PartialResult;
  try {
    result = e.partial(c.query, {
      unknowns: ["input"],
      disableInlining: disableInlining ? packages(c) : undefined,
    });
  } catch (err) {
    if (isInternal(err)) tally.failures.push(`${c.note}: ${String(err)}`);
    return;
  }
  let actual: boolean;
  try {
    const residual = engineOf(c, result.support.map(moduleText));
    actual = result.queries.some((q) => holds(residual, bodyText(q), input));
  } catch (err) {
    tally.failures.push(`${c.note}: residual does not run: ${String(err)}`);
    return;
  }
  if (actual !== expected)
    tally.failures.push(
      `${c.note}: residual says ${actual}, query says ${expected}\n${result.queries.map(bodyText).join("\n--\n")}`,
    );
}

describe("residuals of the OPA compliance cases", {
  skip: skipUnlessProvided(
    existsSync(suiteDir) ? undefined : `compliance suite not found at ${suiteDir}`,
  ),
}, () => {
  const cases = existsSync(suiteDir)
    ? loadCases([suiteDir])
        .map((lc) => lc.case)
        .filter((c) => c.want_result && !c.want_error && !c.want_error_code && !c.input_term)
    : [];

  for (const disableInlining of [false, true]) {
    it(`answer as the queries do${disableInlining ? ", inlining disabled" : ""}`, () => {
      const tally: Tally = { checked: 0, failures: [] };
      for (const c of cases) check(c, disableInlining, tally);
      assert.ok(tally.checked > 1000, `only ${tally.checked} cases checked`);
      assert.deepEqual(tally.failures, []);
    });
  }
});
