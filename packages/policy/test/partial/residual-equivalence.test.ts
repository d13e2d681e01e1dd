/**
 * The property partial evaluation must keep: for every residual it returns, evaluating the
 * residual queries (with their support modules) on concrete values for the unknowns gives
 * the same answer as evaluating the original query on the same input. Checked over a few
 * hundred seeded inputs per policy and query, for RBAC, ABAC and filtering by owner, with
 * the whole input unknown and with only part of it unknown (the rest given).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PolicyEngine } from "../../src/engine.js";
import type { PartialResult } from "../../src/partial/partial-query.js";
import { bodyText, moduleText } from "../../src/partial/rego-text.js";
import { fromJSON } from "../../src/value/value.js";
import {
  abacInput,
  featuresInput,
  filtersInput,
  postsInput,
  Random,
  rbacInput,
} from "./generator.js";
import {
  ABAC,
  ABAC_DATA,
  FEATURES,
  FEATURES_DATA,
  FILTERS,
  FILTERS_DATA,
  POSTS,
  POSTS_DATA,
  RBAC,
  RBAC_DATA,
} from "./policies.js";

const INPUTS = 300;

function engineOf(modules: Record<string, string>, data: object): PolicyEngine {
  const e = new PolicyEngine();
  for (const [file, source] of Object.entries(modules)) e.addModule(file, source);
  e.addData([], data);
  e.compile();
  return e;
}

/** True when some solution of the query has no `false` expression (a decision that holds). */
function holds(e: PolicyEngine, query: string, input: unknown): boolean {
  const results = e.query(query, { input: fromJSON(input) });
  return results.some((r) => r.expressions.every((x) => x.value !== false));
}

/** Evaluates residual queries on the full input: true when one of them has a solution. */
class ResidualRunner {
  private readonly engines = new Map<string, PolicyEngine>();

  constructor(
    private readonly modules: Record<string, string>,
    private readonly data: object,
  ) {}

  holds(result: PartialResult, input: unknown): boolean {
    const support = result.support.map(moduleText);
    const key = support.join("\n---\n");
    let e = this.engines.get(key);
    if (!e) {
      const modules = { ...this.modules };
      support.forEach((text, i) => {
        modules[`support${i}.rego`] = text;
      });
      e = engineOf(modules, this.data);
      this.engines.set(key, e);
    }
    const engine = e;
    return result.queries.some((q) => holds(engine, bodyText(q), input));
  }
}

interface Case {
  name: string;
  modules: Record<string, string>;
  data: object;
  query: string;
  generate: (r: Random) => Record<string, unknown>;
  /** Unknown refs; the input's other top-level fields are given as known. */
  unknowns: string[];
  /** Refs never inlined (their rules become support rules). */
  disableInlining?: string[];
}

/** The known part of an input: the fields not named unknown (`input` alone: nothing). */
function knownPart(input: Record<string, unknown>, unknowns: string[]): unknown {
  if (unknowns.includes("input")) return undefined;
  const hidden = new Set(
    unknowns.filter((u) => u.startsWith("input.")).map((u) => u.split(".")[1]),
  );
  return Object.fromEntries(Object.entries(input).filter(([k]) => !hidden.has(k)));
}

/** One case per query and unknown set, over one policy file and its data. */
function casesFor(
  label: string,
  policy: { file: string; source: string; data: object },
  generate: Case["generate"],
  queries: string[],
  unknownSets: string[][],
): Case[] {
  return queries.flatMap((query) =>
    unknownSets.map((unknowns) => ({
      name: `${label} ${query} unknowns ${unknowns.join(",")}`,
      modules: { [policy.file]: policy.source },
      data: policy.data,
      query,
      generate,
      unknowns,
    })),
  );
}

const CASES: Case[] = [
  ...casesFor(
    "RBAC",
    { file: "rbac.rego", source: RBAC, data: RBAC_DATA },
    rbacInput,
    ["data.rbac.allow == true", "data.rbac.permitted", "data.rbac.allow"],
    [["input"], ["input.action", "input.type"]],
  ),
  ...casesFor(
    "ABAC",
    { file: "abac.rego", source: ABAC, data: ABAC_DATA },
    abacInput,
    ["data.abac.allow", "data.abac.deny", "data.abac.within_budget", "not data.abac.deny"],
    [["input"], ["input.resource"]],
  ),
  ...casesFor(
    "filters",
    { file: "filters.rego", source: FILTERS, data: FILTERS_DATA },
    filtersInput,
    ["data.filters.allow == true", "data.filters.allow"],
    [["input"], ["input.resource"]],
  ),
  ...casesFor(
    "features",
    { file: "features.rego", source: FEATURES, data: FEATURES_DATA },
    featuresInput,
    [
      "data.features.ok",
      'data.features.level == "mid"',
      "data.features.quota > 30",
      "not data.features.ok",
      'data.features.labels[x] == "SECRET"',
    ],
    [["input"], ["input.tags", "input.score"]],
  ),
  ...casesFor(
    "posts",
    { file: "blog.rego", source: POSTS, data: POSTS_DATA },
    postsInput,
    ["data.blog.allow"],
    [["data.posts"], ["data.posts", "input.clearance"]],
  ),
];

/** Every case again with its package never inlined: support rules all the way down. */
const SUPPORT_CASES: Case[] = CASES.map((c) => ({
  ...c,
  name: `${c.name}, inlining disabled`,
  disableInlining: [`data.${c.query.replace(/^not /, "").split(".")[1]}`],
}));

describe("residual queries answer as the original query", () => {
  [...CASES, ...SUPPORT_CASES].forEach((c, index) => {
    it(c.name, () => {
      const engine = engineOf(c.modules, c.data);
      const runner = new ResidualRunner(c.modules, c.data);
      const random = new Random(1000 + index);
      let held = 0;
      let withSupport = 0;
      for (let i = 0; i < INPUTS; i++) {
        const input = c.generate(random);
        const known = knownPart(input, c.unknowns);
        const result = engine.partial(c.query, {
          input: known === undefined ? undefined : fromJSON(known),
          unknowns: c.unknowns,
          disableInlining: c.disableInlining,
        });
        const expected = holds(engine, c.query, input);
        const actual = runner.holds(result, input);
        if (expected) held++;
        if (result.support.length > 0) withSupport++;
        assert.equal(
          actual,
          expected,
          `input ${JSON.stringify(input)}\nresidual:\n${result.queries.map(bodyText).join("\n--\n")}\nsupport:\n${result.support.map(moduleText).join("\n")}`,
        );
      }
      // The generator must exercise both answers, or the property says little.
      assert.ok(held > 0 && held < INPUTS, `held ${held} of ${INPUTS}`);
      if (c.disableInlining) assert.ok(withSupport > 0, "no support rules were written");
    });
  });
});
