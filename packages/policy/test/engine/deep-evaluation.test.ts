/**
 * Deep and long inputs never flip a decision: a JavaScript stack overflow anywhere in
 * evaluation aborts the query with internal_error instead of making an expression
 * undefined (which silently stopped `deny` rules from firing), and data depth within the
 * limits is walked without recursion.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { RegoError } from "../../src/errors.js";
import { fromJSON, RegoObject, type Value } from "../../src/value/value.js";
import { engineWith, solutions, thrown } from "./helpers.js";

/** `{"a": {"a": ... {"leaf": 1}}}`, `levels` objects above the leaf object. */
function nested(levels: number): Value {
  let v: Value = new RegoObject().set("leaf", 1);
  for (let i = 0; i < levels; i++) v = new RegoObject().set("a", v);
  return v;
}

const policy = `package p
deny contains "one inside" if {
  walk(input, [_, v])
  v == 1
}
deny contains "marshalled" if count(json.marshal(input)) > 0
paths := count([p | walk(input, [p, _])])
`;

/** Only the rule whose builtin overflows the stack (walking 20,000 levels takes long). */
const marshalPolicy = `package p
deny contains "marshalled" if count(json.marshal(input)) > 0
`;

/** The deny set's members, or the code of the error that aborted the query. */
function denyOrError(levels: number, query = "x := data.p.deny"): string[] | string {
  const e = engineWith([marshalPolicy]);
  try {
    const rows = solutions(e, query, { input: nested(levels) });
    return ((rows[0]?.x as string[] | undefined) ?? []).sort();
  } catch (err) {
    assert.ok(err instanceof RegoError, `a RegoError, not ${String(err)}`);
    return err.code;
  }
}

describe("deep input", () => {
  it("walks 999 levels: every path counted, the deny rule fires", () => {
    const e = engineWith([policy]);
    const [row] = solutions(e, "n := data.p.paths; d := data.p.deny", {
      input: nested(999),
    });
    // 999 wrapping objects, the leaf object and the leaf value.
    assert.equal(row?.n, 1001);
    assert.deepEqual(row?.d, ["marshalled", "one inside"]);
  });

  it("walks 4000 levels without recursion", () => {
    const e = engineWith([policy]);
    const [row] = solutions(e, "n := data.p.paths", { input: nested(4000) });
    assert.equal(row?.n, 4002);
  });

  it("never lets a stack overflow inside a builtin make a deny rule undefined", () => {
    // json.marshal of 20,000 levels overflows the stack: the query must abort, not answer [].
    const got = denyOrError(20_000);
    assert.ok(
      got === "internal_error" || (Array.isArray(got) && got.includes("marshalled")),
      `expected internal_error or a firing deny, got ${JSON.stringify(got)}`,
    );
  });
});

/** `n` copies of `condition`, as the lines of a body. */
function conditions(n: number, condition: string): string[] {
  return Array.from({ length: n }, () => condition);
}

describe("deep YAML text", () => {
  const e = engineWith(["package p\n"]);
  const flow = (n: number) => "[".repeat(n) + "]".repeat(n);

  it("reads YAML nested 200 levels", () => {
    const [row] = solutions(e, "x := count(yaml.unmarshal(input.s))", {
      inputJSON: { s: flow(200) },
    });
    assert.equal(row?.x, 1);
  });

  it("writes YAML 200 levels deep and refuses 1,000 as a builtin error", () => {
    const [row] = solutions(e, "x := count(yaml.marshal(input)) > 0", { input: nested(200) });
    assert.equal(row?.x, true);
    const err = thrown(() =>
      e.query("x := yaml.marshal(input)", { input: nested(1000), strictBuiltinErrors: true }),
    );
    assert.equal(err.code, "eval_builtin_error");
    assert.match(err.message, /yaml.marshal: yaml: exceeded max depth of 256/);
  });

  // 999 levels of flow brackets once aborted the whole process inside the YAML parser.
  for (const [what, text] of [
    ["flow brackets", flow(999)],
    ["compact sequences", `${"- ".repeat(5000)}1`],
  ]) {
    it(`refuses ${what} too deep to parse as a builtin error`, () => {
      const query = "x := yaml.unmarshal(input.s)";
      assert.deepEqual(solutions(e, query, { inputJSON: { s: text } }), []);
      const err = thrown(() =>
        e.query(query, { input: fromJSON({ s: text }), strictBuiltinErrors: true }),
      );
      assert.equal(err.code, "eval_builtin_error");
      assert.match(err.message, /exceeded max depth of 256/);
    });
  }
});

describe("negation over a failing builtin", () => {
  it("does not turn a stack overflow under `not` into allow", () => {
    const e = engineWith([
      `package p
allow if not too_big
too_big if count(json.marshal(input)) > 1000000
`,
    ]);
    let outcome: unknown;
    try {
      outcome = solutions(e, "x := data.p.allow", { input: nested(20_000) });
    } catch (err) {
      outcome = (err as RegoError).code;
    }
    // json.marshal overflows the stack at this depth; before, `too_big` was undefined and
    // `allow` became true.
    assert.equal(outcome, "internal_error");
  });
});

describe("long bodies", () => {
  it("answers one solution for a query of 1,000 true conditions", () => {
    const e = engineWith(["package p\n"]);
    const query = conditions(1000, "input.a == 1").join("; ");
    assert.equal(solutions(e, query, { inputJSON: { a: 1 } }).length, 1);
  });

  it("answers no solution when one of 1,000 conditions is false", () => {
    const e = engineWith(["package p\n"]);
    const query = [...conditions(900, "input.a == 1"), "not input.a", ...conditions(99, "true")];
    assert.equal(solutions(e, query.join("; "), { inputJSON: { a: 1 } }).length, 0);
  });

  it("keeps bindings made between long runs of conditions", () => {
    const e = engineWith(["package p\n"]);
    const query = [
      ...conditions(500, "input.a == 1"),
      "x := input.a + 1",
      ...conditions(500, "x == 2"),
      "y := [x, x]",
    ];
    assert.deepEqual(solutions(e, query.join("; "), { inputJSON: { a: 1 } }), [
      { x: 2, y: [2, 2] },
    ]);
  });

  it("fires a deny rule whose body has 3,000 conditions", () => {
    const body = conditions(3000, '  input.user != "admin"').join("\n");
    const e = engineWith([`package p\ndeny contains "not admin" if {\n${body}\n}\n`]);
    const [row] = solutions(e, "d := data.p.deny", { inputJSON: { user: "bob" } });
    assert.deepEqual(row?.d, ["not admin"]);
  });
});
