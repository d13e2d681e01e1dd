/**
 * Number text as OPA keeps it: decimal literals print as written, float results as Go's
 * big.Float prints them (Text 'g', -1, at 64 bits), and equality compares exact decimals.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { PolicyEngine } from "../../src/engine.js";
import { stringifyJSON } from "../../src/value/value.js";
import { engineWith } from "./helpers.js";

const empty = new PolicyEngine();

/** The JSON text of each solution's single expression value. */
function texts(e: PolicyEngine, query: string): string[] {
  return e.query(query).map((r) => stringifyJSON(r.expressions[0]?.value ?? null));
}

test("float results print as OPA's big-float text", () => {
  assert.deepEqual(texts(empty, "0.3 - 0.2"), ["0.10000000000000000001"]);
  assert.deepEqual(texts(empty, "2 / 3"), ["0.6666666666666666667"]);
  assert.deepEqual(texts(empty, "0.1 + 0.2"), ["0.3"]);
  assert.deepEqual(texts(empty, "1.1 * 1.1"), ["1.21"]);
  // Go's %g layout: exponent form from 1e6 up and below 1e-4, two exponent digits.
  assert.deepEqual(texts(empty, "1234567.5 + 0"), ["1.2345675e+06"]);
  assert.deepEqual(texts(empty, "0.0000001 * 1"), ["1e-07"]);
  // Integral float results print as integers.
  assert.deepEqual(texts(empty, "0.5 + 0.5"), ["1"]);
});

test("a float result carries its text into later arithmetic", () => {
  // As a double the difference would be exactly 0.1 and this would be 0.
  assert.deepEqual(texts(empty, "(0.3 - 0.2) - 0.1 > 0"), ["true"]);
  const e = engineWith(["package t\nd := 0.3 - 0.2\nback := d + 0.2\n"]);
  assert.deepEqual(texts(e, "data.t.d"), ["0.10000000000000000001"]);
  assert.deepEqual(texts(e, "data.t.back"), ["0.3"]);
  assert.deepEqual(texts(empty, "sum([0.3 - 0.2, 0.1])"), ["0.20000000000000000002"]);
});

test("decimal literals keep their text", () => {
  assert.deepEqual(texts(empty, "0.00"), ["0.00"]);
  assert.deepEqual(texts(empty, "[1.50, -0.50, 1e3, 2.0]"), ["[1.50,-0.50,1e3,2.0]"]);
  const e = engineWith(["package t\nprice := 10.00\nitems := {0.00, 0}\n"]);
  assert.deepEqual(texts(e, "data.t.price"), ["10.00"]);
  assert.deepEqual(texts(e, "count(data.t.items)"), ["1"]);
});

test("json.marshal and print show the text; sprintf formats the float64, as OPA's does", () => {
  assert.deepEqual(texts(empty, "json.marshal([0.3 - 0.2, 0.00])"), [
    JSON.stringify("[0.10000000000000000001,0.00]"),
  ]);
  // OPA passes a non-integer number to Go's fmt as a float64.
  assert.deepEqual(texts(empty, 'sprintf("%v %v %v %v", [0.3 - 0.2, 1.50, 2.0, 2e308])'), [
    JSON.stringify("0.1 1.5 2 2e308"),
  ]);
});

test("equality compares exact decimal values, as OPA does", () => {
  assert.deepEqual(texts(empty, "1.0 == 1"), ["true"]);
  assert.deepEqual(texts(empty, "0.00 == 0"), ["true"]);
  assert.deepEqual(texts(empty, "0.1 + 0.2 == 0.3"), ["true"]);
  // OPA compares 0.10000000000000000001 with 0.1 exactly: they differ.
  assert.deepEqual(texts(empty, "0.3 - 0.2 == 0.1"), []);
  assert.deepEqual(texts(empty, "0.3 - 0.2 > 0.1"), ["true"]);
  assert.deepEqual(texts(empty, "count({0.3 - 0.2, 0.1, 0.10})"), ["2"]);
  assert.deepEqual(texts(empty, "{1.0: 1}[1]"), ["1"]);
});

test("other builtins read a kept-text number by its value", () => {
  assert.deepEqual(texts(empty, "floor(1.50)"), ["1"]);
  assert.deepEqual(texts(empty, "abs(0.2 - 0.3)"), ["0.10000000000000000001"]);
  assert.deepEqual(texts(empty, "abs(-1.50)"), ["1.5"]);
  assert.deepEqual(texts(empty, "numbers.range(0.00, 2.0)"), ["[0,1,2]"]);
  assert.deepEqual(texts(empty, "type_name(0.00)"), ['"number"']);
  assert.deepEqual(texts(empty, "is_number(0.3 - 0.2)"), ["true"]);
  assert.deepEqual(texts(empty, "1 / 0.00"), []);
});

test("literals JSON cannot carry as written print as JSON numbers", () => {
  // Rego reads `.5` and `007.50`; written back as is, the answer would not parse as JSON.
  const cases: Array<[string, string]> = [
    [".5", "0.5"],
    ["-.5", "-0.5"],
    ["007.50", "7.50"],
    [".5e3", "0.5e3"],
    ["[.25, 00]", "[0.25,0]"],
  ];
  for (const [literal, json] of cases) {
    const [text] = texts(empty, literal);
    assert.equal(text, json, literal);
    JSON.parse(text as string);
  }
  assert.deepEqual(texts(empty, ".5 == 0.5"), ["true"]);
});
