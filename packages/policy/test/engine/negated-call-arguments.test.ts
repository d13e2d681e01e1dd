/**
 * Call arguments are evaluated before the negation, as OPA's compiler arranges (its stages
 * RewriteExprTerms and RewriteDynamicTerms move them out of `not`): `not f(input.missing)`
 * is undefined, not true. Each row is checked in a rule and as an ad-hoc query, with an input
 * that lacks the operand (OPA's answer) and with one that has it (the negation holds), so
 * that no row passes by always being undefined.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { RegoErrorList } from "../../src/errors.js";
import { fromJSON } from "../../src/value/value.js";
import { engineWith, solutions, thrown } from "./helpers.js";

const MODULE = `package t

f(x) if x == 1

obj := {"a": 1, "b": 2}
`;

interface Row {
  /** A rule body over `f` and `obj`; the query form names them `data.t.f`, `data.t.obj`. */
  body: string;
  /** OPA's answer with `input.missing` absent (input `{}`, or `present` less `missing`). */
  rule: boolean;
  /** The same as an ad-hoc query, when it differs from the rule. */
  query?: boolean;
  /** An input that has the operand, under which the negation holds. */
  present: Record<string, unknown>;
}

const ROWS: Row[] = [
  { body: "not f(input.missing)", rule: false, present: { missing: 2 } },
  { body: 'not startswith(input.missing, "a")', rule: false, present: { missing: "b" } },
  { body: "not input.missing != 1", rule: false, present: { missing: 1 } },
  { body: "x := 1; not x in input.missing", rule: false, present: { missing: [2] } },
  { body: "not f(lower(input.missing))", rule: false, present: { missing: "B" } },
  { body: "not count(input.missing) > 0", rule: false, present: { missing: [] } },
  { body: "not obj[input.missing]", rule: false, present: { missing: "z" } },
  { body: "not obj[input.missing] == 1", rule: false, present: { missing: "b" } },
  // x is used: an every var the body never uses is the compile error "declared var x unused".
  { body: "every x in [1] { x == 1; not f(input.missing) }", rule: false, present: { missing: 2 } },
  // A plain ref beside `==` stays in a rule (OPA's RewriteEquals makes it `=` first); an
  // ad-hoc query keeps `==` a call, and OPA's query compiler moves its ref operands.
  { body: "not input.missing == 1", rule: true, query: false, present: { missing: 2 } },
  { body: "not input.missing = 1", rule: true, present: { missing: 2 } },
];

function queryForm(body: string): string {
  return body.replace(/\bf\(/g, "data.t.f(").replace(/\bobj\[/g, "data.t.obj[");
}

/** Whether `p` is true in a module whose rule `p` has `body`. */
function ruleHolds(body: string, input: unknown): boolean {
  const e = engineWith([`${MODULE}\np if {\n\t${body}\n}\n`]);
  const s = solutions(e, "x := data.t.p", { inputJSON: input });
  return s.length === 1 && s[0]?.x === true;
}

function queryHolds(body: string, input: unknown): boolean {
  const e = engineWith([MODULE]);
  return e.query(queryForm(body), { input: fromJSON(input) }).length > 0;
}

describe("call arguments of a negated expression are evaluated before the negation", () => {
  for (const row of ROWS) {
    it(`${row.body}: ${row.rule ? "true" : "undefined"} without input.missing`, () => {
      assert.equal(ruleHolds(row.body, {}), row.rule, "in a rule");
      assert.equal(queryHolds(row.body, {}), row.query ?? row.rule, "as a query");
      assert.equal(ruleHolds(row.body, row.present), true, "in a rule, operand present");
      assert.equal(queryHolds(row.body, row.present), true, "as a query, operand present");
    });
  }

  it("the moved expression keeps the with modifiers of the negated one", () => {
    const input = { x: 2 };
    // With the `with` kept, input.x is read from `{}`: undefined, so the rule is too.
    assert.equal(ruleHolds("not f(input.x) with input as {}", input), false);
    assert.equal(queryHolds("not f(input.x) with input as {}", input), false);
    assert.equal(ruleHolds('not f(input.x) with input as {"x": 2}', {}), true);
    assert.equal(queryHolds('not f(input.x) with input as {"x": 2}', {}), true);
  });

  it("a comprehension's negated expressions are rewritten, in a rule head and a query", () => {
    const e = engineWith([`${MODULE}\nr := [1 | not f(input.missing)]\n`]);
    assert.deepEqual(solutions(e, "x := data.t.r", { inputJSON: {} }), [{ x: [] }]);
    assert.deepEqual(solutions(e, "x := data.t.r", { inputJSON: { missing: 2 } }), [{ x: [1] }]);
    assert.deepEqual(solutions(e, "x := [1 | not data.t.f(input.missing)]", { inputJSON: {} }), [
      { x: [] },
    ]);
  });

  it("a comprehension that is itself a moved operand has its body rewritten first", () => {
    // The inner negation is undefined, so the count is 0 and `not 0 == 1` holds.
    const body = "not count([y | y := 1; not f(input.missing)]) == 1";
    assert.equal(ruleHolds(body, {}), true);
    assert.equal(ruleHolds(body, { missing: 2 }), false);
  });

  it("functions and else bodies are rewritten too", () => {
    const e = engineWith([
      `${MODULE}
g(y) if not f(y.v)

h := 1 if {
	false
} else := 2 if {
	not f(input.missing)
} else := 3
`,
    ]);
    assert.deepEqual(solutions(e, "x := data.t.g({})"), []);
    assert.deepEqual(solutions(e, 'x := data.t.g({"v": 2})'), [{ x: true }]);
    assert.deepEqual(solutions(e, "x := data.t.h", { inputJSON: {} }), [{ x: 3 }]);
    assert.deepEqual(solutions(e, "x := data.t.h", { inputJSON: { missing: 2 } }), [{ x: 2 }]);
  });

  it("a query's results list only the expressions written, not the moved ones", () => {
    const e = engineWith([MODULE]);
    const [r] = e.query("not data.t.f(input.x); y := 1", { input: fromJSON({ x: 2 }) });
    assert.deepEqual(
      r?.expressions.map((x) => x.text),
      ["not data.t.f(input.x)", "y := 1"],
    );
  });
});

describe("negating every or some", () => {
  for (const [kw, text] of [
    ["every", "not every x in [1] { x }"],
    ["some", "not some x in [1]"],
  ] as const) {
    it(`'not ${kw}' is OPA's parse error, at the keyword`, () => {
      const e = engineWith(["package t"]);
      const list = thrown(() => e.query(text));
      assert.ok(list instanceof RegoErrorList, String(list));
      const [err] = list.errors;
      assert.equal(err?.code, "rego_parse_error");
      assert.equal(err?.message, `unexpected ${kw} keyword: illegal negation of '${kw}'`);
      assert.deepEqual([err?.location?.row, err?.location?.col], [1, 5]);
      const inModule = thrown(() => engineWith([`package t\np if {\n\t${text}\n}\n`]));
      assert.match(inModule.message, new RegExp(`illegal negation of '${kw}'`));
    });
  }
});
