import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { builtinError, callBuiltin, callJSON, set, typeError } from "./testing/call-builtin.js";

describe("to_number", () => {
  test("converts null, booleans, numbers and numeric strings", () => {
    assert.equal(callBuiltin("to_number", [null]), 0);
    assert.equal(callBuiltin("to_number", [true]), 1);
    assert.equal(callBuiltin("to_number", [false]), 0);
    assert.equal(callBuiltin("to_number", [100.1]), 100.1);
    assert.equal(callBuiltin("to_number", ["-42.0"]), -42);
    assert.equal(callBuiltin("to_number", ["3"]), 3);
    assert.equal(callBuiltin("to_number", ["+1.5e2"]), 150);
    assert.equal(callBuiltin("to_number", [".5"]), 0.5);
    assert.equal(callBuiltin("to_number", ["-0"]), 0);
  });

  test("keeps big integer strings exact", () => {
    assert.equal(callJSON("to_number", "28857836529306024611913"), "28857836529306024611913");
  });

  test("refuses text that is not a number", () => {
    for (const text of ["broken", "", "1,5", "0x10", "1_000"]) {
      assert.throws(
        () => callBuiltin("to_number", [text]),
        builtinError(
          `to_number: strconv.ParseFloat: parsing ${JSON.stringify(text)}: invalid syntax`,
        ),
      );
    }
  });

  test("refuses infinities and NaN as type errors", () => {
    for (const text of ["nan", "-nan", "-NaN", "inf", "-inf", "iNf", "Infinity", "-Infinity"]) {
      assert.throws(
        () => callBuiltin("to_number", [text]),
        typeError("to_number: operand 1 must be valid number string but got string"),
      );
    }
  });

  test("refuses out-of-range floats and composite operands", () => {
    assert.throws(
      () => callBuiltin("to_number", ["1e400"]),
      builtinError('to_number: strconv.ParseFloat: parsing "1e400": value out of range'),
    );
    assert.throws(
      () => callBuiltin("to_number", [[1]]),
      typeError(
        "to_number: operand 1 must be one of {null, boolean, number, string} but got array",
      ),
    );
  });
});

describe("deprecated cast_* builtins", () => {
  test("cast_array and cast_set convert between arrays and sets", () => {
    assert.equal(callJSON("cast_array", set(3, 1)), "[1,3]");
    assert.equal(callJSON("cast_set", [2, 1, 2]), "[1,2]");
    assert.throws(
      () => callBuiltin("cast_set", ["x"]),
      typeError("cast_set: operand 1 must be one of {array, set} but got string"),
    );
  });

  test("the scalar casts accept only their own type", () => {
    assert.equal(callBuiltin("cast_string", ["x"]), "x");
    assert.equal(callBuiltin("cast_boolean", [true]), true);
    assert.equal(callBuiltin("cast_null", [null]), null);
    assert.throws(
      () => callBuiltin("cast_string", [1]),
      typeError("cast_string: operand 1 must be string but got number"),
    );
    assert.throws(
      () => callBuiltin("cast_object", [[]]),
      typeError("cast_object: operand 1 must be object but got array"),
    );
  });
});
