/**
 * Bounded work inside builtins: builtins that loop for as long as their operands say check
 * the query's deadline as they go (eval_cancel_error), and builtins that build results sized
 * by their operands refuse results past REGO_MAX_COLLECTION_SIZE (eval_limit_error). Both
 * abort the query, even without strict builtin errors. Each case's work would take far
 * longer than its time bound, so the outcome does not depend on the machine's speed.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { QueryOptions } from "../../src/engine.js";
import { RegoError } from "../../src/errors.js";
import { engineWith } from "./helpers.js";

/** The code of the error the query ends with. */
function failure(query: string, options: QueryOptions): string {
  const e = engineWith(["package p\n"]);
  try {
    e.query(query, options);
  } catch (err) {
    assert.ok(err instanceof RegoError, `a RegoError, not ${String(err)}`);
    return err.code;
  }
  assert.fail(`${query} finished without an error`);
}

/** A small time bound, with the collection limit out of the way. */
const timed: QueryOptions = { timeoutMs: 20, maxCollectionSize: 2 ** 31 };

describe("builtins check the deadline in their loops", () => {
  const cases: [string, string][] = [
    ["numbers.range", "x := numbers.range(1, 50000000)"],
    ["numbers.range_step", "x := numbers.range_step(1, 50000000, 1)"],
    ["numbers.range over big integers", "x := numbers.range(9007199254740993, 9007199304740993)"],
    ["net.cidr_expand", 'x := net.cidr_expand("10.0.0.0/8")'],
    [
      "regex.globs_match",
      `x := regex.globs_match("${"a*".repeat(3000)}", "${"a*".repeat(3000)}b")`,
    ],
  ];
  for (const [name, query] of cases) {
    it(`${name} stops with eval_cancel_error at the time bound`, () => {
      assert.equal(failure(query, timed), "eval_cancel_error");
    });
  }
});

describe("builtins refuse results past the collection limit", () => {
  const small: QueryOptions = { maxCollectionSize: 1000 };
  const long = "a".repeat(600);
  const cases: [string, string][] = [
    ["net.cidr_expand", 'x := net.cidr_expand("10.0.0.0/16")'],
    ["array.concat", "x := array.concat(numbers.range(1, 600), numbers.range(1, 600))"],
    ["concat", `x := concat(",", ["${long}", "${long}"])`],
    ["replace", `x := replace("${long}", "a", "bb")`],
    ["strings.replace_n", `x := strings.replace_n({"a": "bb"}, "${long}")`],
    ["sprintf", 'x := sprintf("%2000d", [1])'],
    ["regex.replace", `x := regex.replace("${long}", "a", "bb")`],
    // 1 << 1e9 has 301 million digits: writing it alone took minutes, past any deadline.
    ["bits.lsh", "x := bits.lsh(1, 1000000000)"],
  ];
  for (const [name, query] of cases) {
    it(`${name} aborts with eval_limit_error`, () => {
      assert.equal(failure(query, small), "eval_limit_error");
    });
  }

  it("names the limit and its variable in the message", () => {
    const e = engineWith(["package p\n"]);
    assert.throws(
      () => e.query('x := net.cidr_expand("10.0.0.0/20")', small),
      /net.cidr_expand: 4096 elements exceed the limit of 1000 \(REGO_MAX_COLLECTION_SIZE\)/,
    );
  });

  it("builds results within the limit as before", () => {
    const e = engineWith(["package p\n"]);
    const [row] = e.query(
      'x := count(numbers.range(1, 1000)); y := concat("", ["ab", "c"])',
      small,
    );
    assert.equal(row?.bindings.get("x"), 1000);
    assert.equal(row?.bindings.get("y"), "abc");
  });
});

describe("numbers.range is bounded by time and memory only, as in OPA", () => {
  it("builds a range past the collection limit", () => {
    const e = engineWith(["package p\n"]);
    const [row] = e.query("x := count(numbers.range(1, 5000))", { maxCollectionSize: 1000 });
    assert.equal(row?.bindings.get("x"), 5000);
  });

  it("refuses, with eval_limit_error, a range that could not fit in memory", () => {
    for (const query of [
      "x := numbers.range(1, 1000000000000)",
      "x := numbers.range_step(0, 1000000000000, 1)",
    ]) {
      assert.equal(failure(query, {}), "eval_limit_error");
    }
    const e = engineWith(["package p\n"]);
    assert.throws(
      () => e.query("x := numbers.range(1, 1000000000000)"),
      /numbers.range: 1000000000000 elements would not fit in the memory left/,
    );
  });
});

describe("comprehensions and rules are bounded too", () => {
  const small: QueryOptions = { maxCollectionSize: 1000 };
  for (const query of [
    // Each range is within the limit; what they build together is not.
    "x := [[a, b] | numbers.range(1, 40)[a]; numbers.range(1, 40)[b]]",
    "x := {[a, b] | numbers.range(1, 40)[a]; numbers.range(1, 40)[b]}",
    "x := {[a, b]: 1 | numbers.range(1, 40)[a]; numbers.range(1, 40)[b]}",
    "a := numbers.range(1, 40)[_]; b := numbers.range(1, 40)[_]",
  ]) {
    it(`${query} aborts with eval_limit_error`, () => {
      assert.equal(failure(query, small), "eval_limit_error");
    });
  }

  it("a partial set rule past the limit aborts with eval_limit_error", () => {
    const e = engineWith([
      "package p\ns contains [a, b] if {\n numbers.range(1, 40)[a]\n numbers.range(1, 40)[b]\n}\n",
    ]);
    assert.throws(
      () => e.query("x := data.p.s", small),
      (err: RegoError) => err.code === "eval_limit_error" && /rule data.p.s/.test(err.message),
    );
  });

  it("one expression iterating a large collection stops at the time bound", () => {
    const query = "xs := numbers.range(1, 5000); xs[a]; xs[b]; xs[c]; a + b + c < 0";
    assert.equal(failure(query, { timeoutMs: 20 }), "eval_cancel_error");
  });
});
