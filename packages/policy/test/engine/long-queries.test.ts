/**
 * Long queries and bodies, and long rule dependency chains, within the parser's limits
 * evaluate to OPA's answer: the length comes from the policy, so evaluation must not need
 * a JavaScript frame per expression or per rule level.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { engineWith, solutions, thrown } from "./helpers.js";

/** `x1 := 1; x2 := x1; ...; x<n> := x<n-1>` joined by `sep`. */
function assignChain(n: number, sep: string): string {
  const parts = ["x1 := 1"];
  for (let i = 2; i <= n; i++) parts.push(`x${i} := x${i - 1}`);
  return parts.join(sep);
}

describe("long bodies", () => {
  for (const n of [1000, 5000]) {
    it(`a query of ${n} chained assignments binds every var`, () => {
      const rows = solutions(engineWith([]), assignChain(n, "; "));
      assert.equal(rows.length, 1);
      assert.equal(rows[0]?.[`x${n}`], 1);
      assert.equal(rows[0]?.x1, 1);
      assert.equal(Object.keys(rows[0] ?? {}).length, n);
    });
  }

  it("a rule body of 3000 chained unifications", () => {
    const body = assignChain(3000, "\n  ").replaceAll(":=", "=");
    const e = engineWith([`package p\nr := x3000 if {\n  ${body}\n}\n`]);
    assert.deepEqual(solutions(e, "v := data.p.r"), [{ v: 1 }]);
  });

  it("a chain of 1500 `some in` iterations keeps backtracking", () => {
    // Each level has two candidates; only one continues the chain.
    const parts = ["some x0 in [0]"];
    for (let i = 1; i <= 1500; i++) parts.push(`some x${i} in [x${i - 1} + 1, -1]; x${i} >= 0`);
    const e = engineWith([`package p\nlast contains x1500 if {\n  ${parts.join("\n  ")}\n}\n`]);
    assert.deepEqual(solutions(e, "v := data.p.last"), [{ v: [1500] }]);
  });

  it("a long query still enumerates every solution", () => {
    const parts = ["some a in [1, 2, 3]"];
    for (let i = 0; i < 1000; i++) parts.push("a > 0");
    parts.push("b := a * 2");
    const rows = solutions(engineWith([]), parts.join("; "));
    assert.deepEqual(
      rows.map((r) => r.b),
      [2, 4, 6],
    );
  });
});

describe("long rule dependency chains", () => {
  for (const n of [1000, 5000]) {
    it(`r${n} := r${n - 1} + 1 down to r0 := 1 evaluates`, () => {
      const lines = ["package chain", "r0 := 1"];
      for (let i = 1; i <= n; i++) lines.push(`r${i} := r${i - 1} + 1`);
      const e = engineWith([lines.join("\n")]);
      assert.deepEqual(solutions(e, `v := data.chain.r${n}`), [{ v: n + 1 }]);
    });
  }

  it("a chain whose bottom rule is undefined stays undefined", () => {
    const lines = ["package chain", "r0 := 1 if false"];
    for (let i = 1; i <= 2000; i++) lines.push(`r${i} := r${i - 1} + 1`);
    const e = engineWith([lines.join("\n")]);
    assert.deepEqual(solutions(e, "v := data.chain.r2000"), []);
  });
});

describe("long chains and errors", () => {
  /** `r300 := r299 + 1` ... `r1 := r0 + 1`, `r0 := 1`, with `extra` lines, in package chain. */
  function chainWith(extra: string[]) {
    const lines = ["package chain", "r0 := 1", "bad := 1 if true", "bad := 2 if true"];
    for (let i = 1; i <= 300; i++) lines.push(`r${i} := r${i - 1} + 1`);
    return engineWith([[...lines, ...extra].join("\n")]);
  }

  it("a conflicting document the chain never reaches is not reported", () => {
    const e = chainWith(["r2 := 99 if { false; bad > 0 }"]);
    assert.deepEqual(solutions(e, "v := data.chain.r300"), [{ v: 301 }]);
  });

  it("a conflicting document the chain reaches aborts the query", () => {
    const e = chainWith(["r2 := 99 if { bad > 0; false }"]);
    assert.equal(thrown(() => solutions(e, "v := data.chain.r300")).code, "eval_conflict_error");
  });
});

describe("deeply nested expressions", () => {
  const depth = 700;

  it(`a sum of ${depth} terms`, () => {
    const q = `y := ${Array(depth).fill("1").join(" + ")}`;
    assert.deepEqual(solutions(engineWith([]), q), [{ y: depth }]);
  });

  it(`abs nested ${depth} deep, in a rule and over each solution of an iteration`, () => {
    const call = `${"abs(".repeat(depth)}x${")".repeat(depth)}`;
    const e = engineWith([
      `package p\nys contains y if {\n  some x in [-1, 2, -3]\n  y := ${call}\n}\n`,
    ]);
    assert.deepEqual(solutions(e, "v := data.p.ys"), [{ v: [1, 2, 3] }]);
  });

  it(`${depth} nested negations`, () => {
    const e = engineWith([]);
    assert.deepEqual(solutions(e, `y := ${"- ".repeat(depth)}1`), [{ y: 1 }]);
    assert.deepEqual(solutions(e, `y := ${"- ".repeat(depth + 1)}1`), [{ y: -1 }]);
  });

  it("an argument with several values deep in the nesting gives each result", () => {
    // The innermost operand iterates: each of its values yields one solution.
    const q = `y := ${"abs(".repeat(100)}[-1, -2][_]${")".repeat(100)}`;
    const rows = solutions(engineWith([]), q);
    assert.deepEqual(rows.map((r) => r.y).sort(), [1, 2]);
  });

  it("an undefined operand deep in the nesting makes the expression undefined", () => {
    const q = `y := ${"abs(".repeat(300)}input.missing${")".repeat(300)}`;
    assert.deepEqual(solutions(engineWith([]), q), []);
  });
});

describe("deep values from json.unmarshal", () => {
  const deep = (levels: number) => `${"[".repeat(levels)}1${"]".repeat(levels)}`;

  it("a document 1000 levels deep is read, compared and written", () => {
    const q =
      "x := json.unmarshal(input.s); x == json.unmarshal(input.s); n := count(json.marshal(x))";
    const rows = solutions(engineWith([]), q, { inputJSON: { s: deep(1000) } });
    assert.equal(rows[0]?.n, 2001);
  });

  it("a deeper document is a builtin error, not a stack overflow", () => {
    const e = engineWith([]);
    const q = "x := json.unmarshal(input.s); y := json.marshal(x)";
    assert.deepEqual(solutions(e, q, { inputJSON: { s: deep(8000) } }), []);
    const err = thrown(() =>
      solutions(e, q, { inputJSON: { s: deep(8000) }, strictBuiltinErrors: true }),
    );
    assert.equal(err.code, "eval_builtin_error");
    assert.match(err.message, /exceeded max depth of 1000/);
  });
});

describe("stack overflows over JWT payloads", () => {
  it("a JWT payload too deep for json.marshal aborts the query, never undefined", () => {
    const part = (json: string) => Buffer.from(json).toString("base64url");
    const payload = `{"a":${"[".repeat(9000)}${"]".repeat(9000)}}`;
    const token = `${part('{"alg":"HS256","typ":"JWT"}')}.${part(payload)}.${part("sig")}`;
    const e = engineWith([]);
    const err = thrown(() =>
      solutions(e, "[_, p, _] := io.jwt.decode(input.t); x := json.marshal(p)", {
        inputJSON: { t: token },
      }),
    );
    assert.equal(err.code, "internal_error");
  });
});
