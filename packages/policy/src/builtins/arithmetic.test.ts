import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { RegoError } from "../errors.js";
import {
  builtinError,
  callBuiltin,
  callJSON,
  set,
  testContext,
  typeError,
} from "./testing/call-builtin.js";

describe("arithmetic operators", () => {
  test("small integers add, subtract and multiply exactly", () => {
    assert.equal(callJSON("plus", 1, 2), "3");
    assert.equal(callJSON("minus", 1, 2), "-1");
    assert.equal(callJSON("mul", 6, 7), "42");
  });

  test("integers beyond the safe range stay exact", () => {
    assert.equal(callJSON("plus", 49649733057, 1), "49649733058");
    assert.equal(callJSON("plus", Number.MAX_SAFE_INTEGER, 2), "9007199254740993");
    assert.equal(callJSON("mul", 12345678901234, 98765432109876), "1219326311370155158039986984");
    assert.equal(callJSON("minus", 28857836529306024611913n, 1), "28857836529306024611912");
  });

  test("zero results are never negative zero", () => {
    assert.ok(Object.is(callBuiltin("mul", [0, -5]), 0));
    assert.ok(Object.is(callBuiltin("rem", [-4, 2]), 0));
    assert.ok(Object.is(callBuiltin("div", [0, -5]), 0));
    assert.ok(Object.is(callBuiltin("mul", [0.0, -2.5]), 0));
  });

  test("results that come back into the safe range become plain numbers", () => {
    assert.equal(callBuiltin("minus", [9007199254740993n, 9007199254740990n]), 3);
  });

  test("a float operand makes a float result", () => {
    assert.equal(callBuiltin("plus", [1.5, 1]), 2.5);
    assert.equal(callBuiltin("mul", [0.5, 4]), 2);
  });

  test("minus on two sets is set difference", () => {
    assert.equal(callJSON("minus", set(1, 2, 3, 4), set(1, 3)), "[2,4]");
  });

  test("minus names the operand that does not match the first", () => {
    assert.throws(
      () => callBuiltin("minus", [set(1), 1]),
      typeError("minus: operand 2 must be set but got number"),
    );
    assert.throws(
      () => callBuiltin("minus", [1, set(1)]),
      typeError("minus: operand 2 must be number but got set"),
    );
    assert.throws(
      () => callBuiltin("minus", [set(1), "a"]),
      typeError("minus: operand 2 must be number but got string"),
    );
    assert.throws(
      () => callBuiltin("minus", ["a", 1]),
      typeError("minus: operand 1 must be one of {number, set} but got string"),
    );
  });

  test("a non-number operand is a type error naming its position", () => {
    assert.throws(
      () => callBuiltin("plus", [1, "2"]),
      typeError("plus: operand 2 must be number but got string"),
    );
    assert.throws(
      () => callBuiltin("mul", [null, 2]),
      typeError("mul: operand 1 must be number but got null"),
    );
  });
});

describe("division and remainder", () => {
  test("integers that divide evenly give integers, others give floats", () => {
    assert.equal(callBuiltin("div", [8, 2]), 4);
    assert.equal(callBuiltin("div", [7, 2]), 3.5);
    assert.equal(callJSON("div", 10n ** 30n, 10n ** 10n), "100000000000000000000");
  });

  test("dividing by zero is a builtin error", () => {
    assert.throws(() => callBuiltin("div", [1, 0]), builtinError("div: divide by zero"));
    assert.throws(() => callBuiltin("div", [1.5, 0.0]), builtinError("div: divide by zero"));
  });

  test("remainder keeps the dividend's sign", () => {
    assert.equal(callBuiltin("rem", [7, 4]), 3);
    assert.equal(callBuiltin("rem", [-7, 4]), -3);
    assert.equal(callJSON("rem", 10n ** 25n + 7n, 10), "7");
  });

  test("remainder refuses zero and floats", () => {
    assert.throws(() => callBuiltin("rem", [7, 0]), builtinError("rem: modulo by zero"));
    assert.throws(
      () => callBuiltin("rem", [1.1, 1]),
      builtinError("rem: modulo on floating-point number"),
    );
  });

  test("a float overflow is an error rather than infinity", () => {
    assert.throws(
      () => callBuiltin("mul", [1e308, 10.5]),
      builtinError("mul: arithmetic result out of range"),
    );
  });
});

describe("rounding", () => {
  test("round goes half away from zero", () => {
    assert.equal(callBuiltin("round", [2.5]), 3);
    assert.equal(callBuiltin("round", [-2.5]), -3);
    assert.equal(callBuiltin("round", [1.4]), 1);
    assert.equal(callBuiltin("round", [-0.4]), 0);
  });

  test("ceil and floor round up and down", () => {
    assert.equal(callBuiltin("ceil", [1.01]), 2);
    assert.equal(callBuiltin("ceil", [-1.99999]), -1);
    assert.equal(callBuiltin("floor", [-1.001]), -2);
    assert.equal(callBuiltin("floor", [99.99999]), 99);
  });

  test("integers of any size are returned unchanged", () => {
    assert.equal(callBuiltin("floor", [10n ** 20n]), 10n ** 20n);
    assert.equal(callBuiltin("abs", [-(10n ** 20n)]), 10n ** 20n);
    assert.equal(callBuiltin("abs", [-10]), 10);
  });

  test("a non-number is a type error", () => {
    assert.throws(
      () => callBuiltin("abs", ["x"]),
      typeError("abs: operand 1 must be number but got string"),
    );
  });
});

describe("numbers.range and numbers.range_step", () => {
  test("ranges count up or down, both ends included", () => {
    assert.equal(callJSON("numbers.range", -2, 3), "[-2,-1,0,1,2,3]");
    assert.equal(callJSON("numbers.range", 2, -3), "[2,1,0,-1,-2,-3]");
    assert.equal(callJSON("numbers.range", 0, 0), "[0]");
    assert.equal(
      callJSON("numbers.range", 49649733057, 49649733059),
      "[49649733057,49649733058,49649733059]",
    );
  });

  test("ranges refuse floats", () => {
    assert.throws(
      () => callBuiltin("numbers.range", [3.14, 4]),
      typeError("numbers.range: operand 1 must be integer number but got floating-point number"),
    );
  });

  test("range_step steps and stops before passing the end", () => {
    assert.equal(callJSON("numbers.range_step", 0, 10, 2), "[0,2,4,6,8,10]");
    assert.equal(callJSON("numbers.range_step", 10, 3, 2), "[10,8,6,4]");
    assert.equal(callJSON("numbers.range_step", 2, 5, 2), "[2,4]");
    assert.equal(callJSON("numbers.range_step", 0, 10, 99999999999999999999n), "[0]");
  });

  test("range_step needs a positive step", () => {
    for (const step of [0, -2]) {
      assert.throws(
        () => callBuiltin("numbers.range_step", [0, 10, step]),
        builtinError("numbers.range_step: step must be a positive integer"),
      );
    }
  });

  test("a range that could not fit in memory aborts the query with eval_limit_error", () => {
    assert.throws(
      () => callBuiltin("numbers.range", [0, 10n ** 12n]),
      (e: RegoError) => e.code === "eval_limit_error" && /memory left/.test(e.message),
    );
  });
});

describe("rand.intn", () => {
  test("gives the same value for the same operands within one query", () => {
    const ctx = testContext();
    const first = callBuiltin("rand.intn", ["key", 1000], ctx);
    for (let i = 0; i < 20; i++) assert.equal(callBuiltin("rand.intn", ["key", 1000], ctx), first);
    assert.ok(typeof first === "number" && first >= 0 && first < 1000);
  });

  test("uses the absolute value of n, and 0 gives 0", () => {
    const v = callBuiltin("rand.intn", ["k", -5]);
    assert.ok(typeof v === "number" && v >= 0 && v < 5);
    assert.equal(callBuiltin("rand.intn", ["k", 0]), 0);
  });

  test("works below big bounds", () => {
    const v = callBuiltin("rand.intn", ["k", 10n ** 30n]);
    assert.ok(
      (typeof v === "bigint" || typeof v === "number") && BigInt(v) < 10n ** 30n && BigInt(v) >= 0n,
    );
  });

  test("is marked nondeterministic and checks its operands", () => {
    assert.throws(
      () => callBuiltin("rand.intn", ["k", 1.5]),
      typeError("rand.intn: operand 2 must be integer number but got floating-point number"),
    );
    assert.throws(
      () => callBuiltin("rand.intn", [1, 5]),
      typeError("rand.intn: operand 1 must be string but got number"),
    );
  });
});
