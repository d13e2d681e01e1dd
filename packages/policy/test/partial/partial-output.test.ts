/**
 * What partial evaluation returns for common policies, in OPA's shapes: residual queries
 * (known values evaluated, rules inlined, copies propagated), support modules under
 * `data.partial` for rules with defaults, functions and `disableInlining`, the AST JSON and
 * the pretty table.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PolicyEngine } from "../../src/engine.js";
import { RegoError, RegoErrorList } from "../../src/errors.js";
import { compactAst, partialJson, partialPretty } from "../../src/partial/partial-output.js";
import type { PartialResult } from "../../src/partial/partial-query.js";
import { bodyText, moduleText } from "../../src/partial/rego-text.js";
import { fromJSON } from "../../src/value/value.js";
import { POSTS, POSTS_DATA } from "./policies.js";

function engine(source: string, data: object = {}): PolicyEngine {
  const e = new PolicyEngine();
  e.addModule("p.rego", source);
  e.addData([], data);
  e.compile();
  return e;
}

function queries(r: PartialResult): string[] {
  return r.queries.map(bodyText);
}

const FILTER = `package filters

allow if input.resource.owner == input.user

allow if {
	x := input.resource.level
	x > input.clearance
	x < 10
}
`;

describe("residual queries", () => {
  it("evaluates the known input and keeps what reads the unknowns", () => {
    const r = engine(FILTER).partial("data.filters.allow == true", {
      unknowns: ["input.resource"],
      input: fromJSON({ user: "bob", clearance: 2 }),
    });
    assert.deepEqual(queries(r), [
      'input.resource.owner == "bob"',
      "input.resource.level > 2\ninput.resource.level < 10",
    ]);
    assert.deepEqual(r.support, []);
  });

  it("is one empty query when the query always holds, none when it never does", () => {
    const e = engine(FILTER);
    assert.deepEqual(e.partial("1 == 1", {}).queries, [[]]);
    assert.deepEqual(e.partial("1 == 2", {}).queries, []);
    const never = e.partial("data.filters.allow == true", {
      unknowns: ["input.resource"],
      input: fromJSON({ user: "bob", clearance: 20 }),
    });
    // The owner rule, and the level rule whose two bounds are only known together later.
    assert.deepEqual(queries(never), [
      'input.resource.owner == "bob"',
      "input.resource.level > 20\ninput.resource.level < 10",
    ]);
  });

  it("gives one query per element of known data it iterates", () => {
    const e = engine(
      `package t

allow if input.level >= data.reports[_].level`,
      { reports: [{ level: 1 }, { level: 3 }] },
    );
    assert.deepEqual(queries(e.partial("data.t.allow", {})), [
      "input.level >= 1",
      "input.level >= 3",
    ]);
  });

  it("replaces a known rule's value into refs with unknown keys", () => {
    const e = engine(`package t

perms := {"admin": ["read", "write"], "dev": ["read"]}

can if {
	some p in perms[input.role]
	p == "write"
}`);
    assert.deepEqual(queries(e.partial("data.t.can", {})), [
      '{"admin": ["read", "write"], "dev": ["read"]}[input.role][__local0__] == "write"',
    ]);
  });

  it("keeps the query's own vars as bindings", () => {
    const e = engine(FILTER);
    assert.deepEqual(queries(e.partial("x := input.a; y := 2", {})), ["x = input.a\ny = 2"]);
  });

  it("inlines partial sets used with a key", () => {
    const e = engine(`package t

admins contains u if some u in input.admins

ok if admins["bob"]`);
    assert.deepEqual(queries(e.partial("data.t.ok", {})), ['"bob" = input.admins[__local0__]']);
  });
});

describe("filtering rows of an unknown table", () => {
  it("leaves the conditions on data.posts, the request evaluated", () => {
    const e = engine(POSTS, POSTS_DATA);
    const input = fromJSON({ method: "GET", path: ["posts"], user: "bob", clearance: 2 });
    const r = e.partial("data.blog.allow", { unknowns: ["data.posts"], input });
    assert.deepEqual(queries(r), [
      'data.posts[__local0__].author == "bob"',
      "data.posts[__local0__].public\ndata.posts[__local0__].clearance <= 2",
    ]);
    const post = fromJSON({ method: "POST", path: ["posts"], user: "bob", clearance: 2 });
    assert.deepEqual(
      e.partial("data.blog.allow", { unknowns: ["data.posts"], input: post }).queries,
      [],
    );
  });
});

describe("nondeterministic builtins", () => {
  const POLICY = `package t

now := time.now_ns()

fresh if input.exp > now
`;

  it("keeps their calls for evaluation time, as OPA", () => {
    const e = engine(POLICY);
    assert.deepEqual(queries(e.partial("time.now_ns(x)", { nowNs: 5n })), ["time.now_ns(x)"]);
    assert.deepEqual(queries(e.partial("data.t.fresh", { nowNs: 5n })), [
      "input.exp > time.now_ns()",
    ]);
  });

  it("evaluates them with nondeterministicBuiltins", () => {
    const e = engine(POLICY);
    const options = { nowNs: 5n, nondeterministicBuiltins: true };
    assert.deepEqual(queries(e.partial("time.now_ns(x)", options)), ["x = 5"]);
    assert.deepEqual(queries(e.partial("data.t.fresh", options)), ["input.exp > 5"]);
  });
});

describe("with, limits", () => {
  const POLICY = `package t

allow if input.x == 1

p if {
	input.y == 2
	allow with input as {"x": 1}
}
`;

  it("evaluates what `with input as <known value>` makes known", () => {
    const e = engine(POLICY);
    assert.deepEqual(queries(e.partial('data.t.allow with input as {"x": 1}', {})), ["true"]);
    assert.deepEqual(queries(e.partial('data.t.allow with input as {"x": 2}', {})), []);
    assert.deepEqual(queries(e.partial("data.t.p", {})), ["input.y == 2"]);
  });

  it("keeps an expression with `with` on part of an unknown input as written, as OPA", () => {
    const r = engine(POLICY).partial("data.t.allow with input.x as 1", {});
    assert.deepEqual(queries(r), ["data.t.allow with input.x as 1"]);
    assert.deepEqual(r.support, []);
  });

  it("bounds the number of residual queries by the collection limit", () => {
    assert.throws(
      () => engine(POLICY).partial("data.t.allow", { maxCollectionSize: 0 }),
      (err) => err instanceof RegoError && err.code === "eval_limit_error",
    );
  });
});

describe("support modules", () => {
  const POLICY = `package ex

default allow := false

allow if input.x == 1

double(v) := v * 2

big if double(input.n) > 10

sign(x) := "neg" if x < 0
else := "pos"
`;

  it("writes a rule with a default as a support rule under data.partial", () => {
    const r = engine(POLICY).partial("data.ex.allow = x", {});
    assert.deepEqual(queries(r), ["data.partial.ex.allow = x"]);
    assert.deepEqual(r.support.map(moduleText), [
      "package partial.ex\n\nallow if {\n\tinput.x == 1\n}\n\ndefault allow := false\n",
    ]);
  });

  it("inlines a rule with a default when the default could not satisfy the query", () => {
    const e = engine(POLICY);
    assert.deepEqual(queries(e.partial("data.ex.allow == true", {})), ["input.x == 1"]);
    assert.deepEqual(queries(e.partial("data.ex.allow", {})), ["input.x == 1"]);
    assert.deepEqual(queries(e.partial("data.ex.allow == false", {})), [
      "data.partial.ex.allow == false",
    ]);
  });

  it("inlines functions, their parameters unified with the arguments", () => {
    const e = engine(POLICY);
    assert.deepEqual(queries(e.partial("data.ex.big", {})), ["input.n * 2 > 10"]);
    assert.deepEqual(queries(e.partial("data.ex.double(input.z, y)", {})), ["y = input.z * 2"]);
  });

  it("writes functions with an else chain as support functions", () => {
    const r = engine(POLICY).partial('data.ex.sign(input.n) == "neg"', {});
    assert.deepEqual(queries(r), ['data.partial.ex.sign(input.n) == "neg"']);
    assert.deepEqual(r.support.map(moduleText), [
      'package partial.ex\n\nsign(__local0__) := "neg" if {\n\t__local0__ < 0\n} else := "pos"\n',
    ]);
  });

  it("does not inline rules under a disableInlining ref", () => {
    const e = engine(FILTER);
    const r = e.partial("data.filters.allow == true", {
      unknowns: ["input.resource"],
      input: fromJSON({ user: "bob", clearance: 2 }),
      disableInlining: ["data.filters.allow"],
    });
    assert.deepEqual(queries(r), ["data.partial.filters.allow == true"]);
    assert.equal(r.support.length, 1);
    assert.match(moduleText(r.support[0] as never), /input\.resource\.owner == "bob"/);
  });

  it("writes `not` of a rule depending on unknowns as `not` of its support rule", () => {
    const r = engine(FILTER).partial("not data.filters.allow", {});
    assert.deepEqual(queries(r), ["not data.partial.filters.allow"]);
    assert.equal(r.support[0]?.rules.length, 2);
  });
});

describe("output shapes", () => {
  it("writes queries and support in OPA's AST JSON", () => {
    const e = engine(`package ex

default allow := false

allow if input.x == 1`);
    const json = JSON.parse(compactAst(partialJson(e.partial("data.ex.allow == false", {}))));
    assert.deepEqual(json.queries, [
      [
        {
          index: 0,
          terms: [
            { type: "ref", value: [{ type: "var", value: "equal" }] },
            {
              type: "ref",
              value: [
                { type: "var", value: "data" },
                { type: "string", value: "partial" },
                { type: "string", value: "ex" },
                { type: "string", value: "allow" },
              ],
            },
            { type: "boolean", value: false },
          ],
        },
      ],
    ]);
    assert.deepEqual(json.support[0].package.path, [
      { type: "var", value: "data" },
      { type: "string", value: "partial" },
      { type: "string", value: "ex" },
    ]);
    assert.equal(json.support[0].rules[1].default, true);
    assert.deepEqual(json.support[0].rules[1].head.value, { type: "boolean", value: false });
  });

  it("leaves out queries and support when the query never holds", () => {
    assert.deepEqual(partialJson(engine(FILTER).partial("1 == 2", {})), {});
    assert.deepEqual(partialJson(engine(FILTER).partial("true", {})), { queries: [[]] });
  });

  it("prints the pretty table of queries and support modules", () => {
    const e = engine(`package ex

default allow := false

allow if input.x == 1`);
    assert.equal(
      partialPretty(e.partial("data.ex.allow = x", {})),
      [
        "+-----------+---------------------------+",
        "| Query 1   | data.partial.ex.allow = x |",
        "+-----------+---------------------------+",
        "| Support 1 | package partial.ex        |",
        "|           |                           |",
        "|           | allow if {                |",
        "|           |   input.x == 1            |",
        "|           | }                         |",
        "|           |                           |",
        "|           | default allow := false    |",
        "+-----------+---------------------------+",
        "",
      ].join("\n"),
    );
  });
});

describe("unknowns", () => {
  it("refuses an unknown that is not a term", () => {
    const e = engine(FILTER);
    for (const bad of ["1 +", "x; y"]) {
      assert.throws(
        () => e.partial("data.filters.allow", { unknowns: [bad] }),
        (err) =>
          (err instanceof RegoError && err.code === "rego_parse_error") ||
          (err instanceof RegoErrorList && err.errors[0]?.code === "rego_parse_error"),
      );
    }
  });

  it("matches nothing with a term that is not under input or data, as OPA", () => {
    const r = engine(FILTER).partial("input.x == 1", { unknowns: ["x.y"] });
    assert.deepEqual(r.queries, []);
  });

  it("takes a computed key as the end of an unknown ref", () => {
    const r = engine(FILTER).partial("input.a.b == 1", { unknowns: ["input.a[_]"] });
    assert.deepEqual(queries(r), ["input.a.b == 1"]);
  });

  it("treats data refs as unknown when asked", () => {
    const e = engine(`package t

allow if data.users[input.user].active == true`);
    assert.deepEqual(
      queries(
        e.partial("data.t.allow", {
          unknowns: ["data.users"],
          input: fromJSON({ user: "ann" }),
        }),
      ),
      ["data.users.ann.active == true"],
    );
  });
});
