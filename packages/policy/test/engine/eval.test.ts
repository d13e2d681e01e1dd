import assert from "node:assert/strict";
import { test } from "node:test";
import { PolicyEngine } from "../../src/engine.js";
import { RegoError } from "../../src/errors.js";
import { fromJSON, stringifyJSON } from "../../src/value/value.js";
import { engineWith, solutions, thrown } from "./helpers.js";

test("complete rules with different values are an eval_conflict_error", () => {
  const e = engineWith(["package t\np := 1 if input.a\np := 2 if input.b\n"]);
  assert.deepEqual(solutions(e, "x = data.t.p", { inputJSON: { a: true } }), [{ x: 1 }]);
  const err = thrown(() => solutions(e, "x = data.t.p", { inputJSON: { a: true, b: true } }));
  assert.ok(err instanceof RegoError);
  assert.equal(err.code, "eval_conflict_error");
  assert.equal(err.message, "complete rules must not produce multiple outputs");
});

test("a function with two results for one input is a conflict", () => {
  const e = engineWith(["package t\nf(x) := 1 if x > 0\nf(x) := 2 if x > 1\n"]);
  const err = thrown(() => solutions(e, "y = data.t.f(5)"));
  assert.equal(err.code, "eval_conflict_error");
  assert.match(err.message, /functions must not produce multiple outputs/);
});

test("partial objects with one key bound to two values conflict", () => {
  const e = engineWith(['package t\no[k] := v if { some k, v in {"a": 1} }\no["a"] := 2\n']);
  const err = thrown(() => solutions(e, "x = data.t.o"));
  assert.equal(err.code, "eval_conflict_error");
  assert.equal(err.message, "object keys must be unique");
});

test("undefined is distinct from false", () => {
  const e = engineWith(["package t\nf := false\nu if input.missing\n"]);
  assert.deepEqual(solutions(e, "x = data.t.f"), [{ x: false }]);
  assert.deepEqual(solutions(e, "x = data.t.u"), []);
  assert.deepEqual(solutions(e, "not data.t.u; x := 1"), [{ x: 1 }]);
});

test("with replaces input, data, virtual documents and functions for one expression", () => {
  const e = engineWith([
    `package t
p := input.x
q := data.base.v
r := count(input.xs)
double(x) := x * 2
s := double(2)
`,
  ]);
  assert.deepEqual(solutions(e, "x = data.t.p with input.x as 7"), [{ x: 7 }]);
  assert.deepEqual(solutions(e, "x = data.t.q with data.base.v as 3"), [{ x: 3 }]);
  assert.deepEqual(solutions(e, "x = data.t.r with input.xs as [1, 2] with count as 42"), [
    { x: 42 },
  ]);
  assert.deepEqual(solutions(e, "x = data.t.s with data.t.double as 10"), [{ x: 10 }]);
  assert.deepEqual(solutions(e, "x = data.t.p with data.t.p as 5"), [{ x: 5 }]);
  assert.deepEqual(solutions(e, "x = data.t.p"), []);
});

test("every, some ... in, comprehensions and membership evaluate as in OPA", () => {
  const e = engineWith(["package t\nall_pos if every x in input.xs { x > 0 }\n"]);
  assert.deepEqual(solutions(e, "x = data.t.all_pos", { inputJSON: { xs: [1, 2] } }), [
    { x: true },
  ]);
  assert.deepEqual(solutions(e, "x = data.t.all_pos", { inputJSON: { xs: [1, -2] } }), []);
  assert.deepEqual(solutions(e, "x := [y | some y in [3, 1, 2]; y > 1]"), [{ x: [3, 2] }]);
  assert.deepEqual(solutions(e, 'x := {k: v | some k, v in {"a": 1}}'), [{ x: { a: 1 } }]);
  assert.deepEqual(solutions(e, "x := 2 in {1, 2}"), [{ x: true }]);
});

test("a query reports one solution per binding, with expression texts", () => {
  const e = new PolicyEngine();
  const results = e.query("x := [1, 2][_]; y := x + 1");
  assert.deepEqual(
    results.map((r) => [
      stringifyJSON(r.bindings.get("x") ?? null),
      stringifyJSON(r.bindings.get("y") ?? null),
    ]),
    [
      ["1", "2"],
      ["2", "3"],
    ],
  );
  assert.deepEqual(
    results[0]?.expressions.map((x) => x.text),
    ["x := [1, 2][_]", "y := x + 1"],
  );
});

test("evalRef returns a package's document and undefined for a missing one", () => {
  const e = engineWith([
    "package lim\ndefault allow := false\nallow if input.ok\nrole := input.role\n",
  ]);
  assert.equal(
    stringifyJSON(e.evalRef(["lim"], { input: fromJSON({ ok: true }) }) ?? null),
    '{"allow":true}',
  );
  assert.equal(e.evalRef(["lim", "role"], { input: fromJSON({}) }), undefined);
  assert.equal(e.evalRef(["nothing"]), undefined);
});

test("print sends its operands to the print hook, undefined ones as <undefined>", () => {
  const lines: string[] = [];
  const e = engineWith(['package t\np if { print("v:", input.v, input.missing) }\n']);
  solutions(e, "data.t.p", { inputJSON: { v: [1] }, print: (m) => lines.push(m) });
  assert.deepEqual(lines, ["v: [1] <undefined>"]);
});

test("a query over a huge search space stops with eval_cancel_error at its time bound", () => {
  const xs = Array.from({ length: 2000 }, (_, i) => i);
  const e = engineWith(
    ["package t\nn := count([1 | some a in data.xs; some b in data.xs; some c in data.xs])\n"],
    { xs },
  );
  const err = thrown(() => e.query("x = data.t.n", { timeoutMs: 50 }));
  assert.ok(err instanceof RegoError);
  assert.equal(err.code, "eval_cancel_error");
});

test("an aborted signal cancels evaluation", () => {
  const xs = Array.from({ length: 2000 }, (_, i) => i);
  const e = engineWith(["package t\nn := count([1 | some a in data.xs; some b in data.xs])\n"], {
    xs,
  });
  const controller = new AbortController();
  controller.abort();
  const err = thrown(() => e.query("x = data.t.n", { signal: controller.signal }));
  assert.equal(err.code, "eval_cancel_error");
});

test("builtin errors are undefined unless strict, then eval_builtin_error", () => {
  const e = engineWith(["package t\np := 1 / 0\n"]);
  assert.deepEqual(solutions(e, "x = data.t.p"), []);
  const err = thrown(() => solutions(e, "x = data.t.p", { strictBuiltinErrors: true }));
  assert.equal(err.code, "eval_builtin_error");
});

test("many rules keyed on input.x == constant give the matching rule's value", () => {
  const rules = Array.from({ length: 50 }, (_, i) => `v := ${i} if input.x == "k${i}"`).join("\n");
  const e = engineWith([`package idx\n${rules}\n`]);
  assert.deepEqual(solutions(e, "x = data.idx.v", { inputJSON: { x: "k42" } }), [{ x: 42 }]);
  assert.deepEqual(solutions(e, "x = data.idx.v", { inputJSON: { x: "none" } }), []);
});

test("a query expression that is a call without an output operand has the call's value", () => {
  const e = new PolicyEngine();
  const [first] = e.query("count([1, 2, 3])");
  assert.equal(first?.expressions[0]?.value, 3);
  const [second] = e.query("x := 1; x < 2");
  assert.deepEqual(
    second?.expressions.map((x) => x.value),
    [true, true],
  );
});

test("rule indexing evaluates only the rules whose input.x constant matches", () => {
  const rules = Array.from(
    { length: 20 },
    (_, i) => `v := ${i} if {\n  print("evaluated ${i}")\n  input.x == "k${i}"\n}`,
  ).join("\n");
  const e = engineWith([`package idx\n${rules}\n`]);
  const lines: string[] = [];
  assert.deepEqual(
    solutions(e, "x = data.idx.v", { inputJSON: { x: "k7" }, print: (m) => lines.push(m) }),
    [{ x: 7 }],
  );
  assert.deepEqual(lines, ["evaluated 7"]);
});

test("looking up one key of a partial set or object runs only with that key bound", () => {
  const e = engineWith(
    [
      `package t
admins contains name if {
  some name in data.users
  print("checked", name)
  startswith(name, "a")
}
role[name] := "admin" if admins[name]
`,
    ],
    { users: ["alice", "bob", "anna"] },
  );
  const lines: string[] = [];
  assert.deepEqual(solutions(e, 'x = data.t.role["anna"]', { print: (m) => lines.push(m) }), [
    { x: "admin" },
  ]);
  assert.deepEqual(lines, ["checked anna"]);
  assert.deepEqual(solutions(e, 'x = data.t.role["bob"]'), []);
  assert.deepEqual(solutions(e, "x = data.t.role"), [{ x: { alice: "admin", anna: "admin" } }]);
});

test("evalRef reads array elements from numeric path segments given as text", () => {
  const e = engineWith(["package t\nxs := [10, 20]\n"], { arr: [{ a: 1 }], obj: { "0": "zero" } });
  assert.equal(e.evalRef(["t", "xs", "1"]), 20);
  assert.equal(e.evalRef(["arr", "0", "a"]), 1);
  assert.equal(e.evalRef(["obj", "0"]), "zero");
  assert.equal(e.evalRef(["arr", "5"]), undefined);
});

test("evalRef follows a path array changed in place after an earlier call", () => {
  const e = engineWith(["package t\na := 1\nb := 2\n"]);
  const path = ["t", "a"];
  assert.equal(e.evalRef(path), 1);
  path[1] = "b";
  assert.equal(e.evalRef(path), 2);
  path.push("c");
  assert.equal(e.evalRef(path), undefined);
});

test("time.now_ns is fixed for one query and follows options.nowNs", () => {
  const e = engineWith([
    "package t\nsame if time.now_ns() == time.now_ns()\nnow := time.now_ns()\n",
  ]);
  assert.equal(e.evalRef(["t", "same"]), true);
  assert.equal(e.evalRef(["t", "now"], { nowNs: 42n }), 42);
  const before = BigInt(Date.now()) * 1_000_000n;
  const now = e.evalRef(["t", "now"]);
  const after = BigInt(Date.now()) * 1_000_000n;
  assert.ok(typeof now === "number" || typeof now === "bigint");
  assert.ok(BigInt(now) >= before && BigInt(now) <= after);
});
