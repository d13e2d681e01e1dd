/**
 * Partial evaluation of negated expressions whose operands the compiler moves out of the
 * negation (as OPA's RewriteDynamicTerms does): the residuals keep the moved binding, so that
 * they answer as the policy does when the operand is undefined, in OPA's layout (the binding
 * after the negation, as OPA's copy propagation leaves it; a negated `==` written `=`).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PolicyEngine } from "../../src/engine.js";
import type { PartialResult } from "../../src/partial/partial-query.js";
import { bodyText, moduleText } from "../../src/partial/rego-text.js";
import { fromJSON } from "../../src/value/value.js";

const POLICY = `package t

f(x) if x == 1

starts if not startswith(input.x, "a")

calls if not f(input.x)

equals if not input.x == 1

blocked if input.user in ["mallory"]

open if not blocked
`;

function engine(...modules: string[]): PolicyEngine {
  const e = new PolicyEngine();
  modules.forEach((m, i) => {
    e.addModule(`m${i}.rego`, m);
  });
  e.compile();
  return e;
}

function holds(e: PolicyEngine, query: string, input: unknown): boolean {
  return e.query(query, { input: fromJSON(input) }).length > 0;
}

/** Whether some residual query holds for `input`, with the support modules loaded. */
function residualHolds(r: PartialResult, input: unknown): boolean {
  const e = engine(POLICY, ...r.support.map(moduleText));
  return r.queries.some((q) => holds(e, bodyText(q), input));
}

const INPUTS = [
  {},
  { x: "a" },
  { x: "b" },
  { x: 1 },
  { x: 2 },
  { user: "mallory" },
  { user: "bob" },
];

describe("residuals of negations with moved operands", () => {
  it("keep the moved binding, after the negation as OPA's copy propagation leaves it", () => {
    const r = engine(POLICY).partial("data.t.starts", { unknowns: ["input"] });
    assert.deepEqual(r.queries.map(bodyText), [
      'not startswith(__local0__, "a")\n__local0__ = input.x',
    ]);
  });

  it("answer as the policy does for every input, the operand absent included", () => {
    const e = engine(POLICY);
    for (const rule of ["starts", "calls", "equals", "open"]) {
      const r = e.partial(`data.t.${rule}`, { unknowns: ["input"] });
      for (const input of INPUTS) {
        const want = holds(e, `data.t.${rule}`, input);
        assert.equal(residualHolds(r, input), want, `${rule} on ${JSON.stringify(input)}`);
      }
    }
  });

  it("are no query at all when a known operand is undefined", () => {
    const e = engine(POLICY);
    const missing = e.partial("data.t.starts", { unknowns: ["input.y"], input: fromJSON({}) });
    assert.deepEqual(missing.queries, []);
    const present = e.partial("data.t.starts", {
      unknowns: ["input.y"],
      input: fromJSON({ x: "b" }),
    });
    assert.deepEqual(present.queries, [[]]);
  });

  it("write a negated == as =, whose plain ref operand stays in the negation", () => {
    const r = engine(POLICY).partial("data.t.equals", { unknowns: ["input"] });
    assert.deepEqual(r.queries.map(bodyText), ["not input.x = 1"]);
  });

  it("do not negate a rule's one condition when that would move its operands", () => {
    // `not input.user in [...]` would be undefined without input.user; `not blocked` holds.
    const r = engine(POLICY).partial("data.t.open", { unknowns: ["input"] });
    assert.ok(!r.queries.map(bodyText).includes('not input.user in ["mallory"]'));
    assert.equal(residualHolds(r, {}), true);
  });
});
