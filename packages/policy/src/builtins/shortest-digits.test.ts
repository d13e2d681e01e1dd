import assert from "node:assert/strict";
import { test } from "node:test";
import { addBig, divideBig, multiplyBig, negateBig, parseDecimal } from "./big-float.js";
import { goGeneralText } from "./float-result.js";
import { shortestOf } from "./shortest-digits.js";

const text = (x: { mant: bigint; exp: number }) => {
  const { digits, point } = shortestOf(x.mant, x.exp);
  return goGeneralText(false, digits, point);
};

test("shortest digits of 64-bit results, as Go's big.Float prints them", () => {
  const d = parseDecimal;
  assert.equal(text(addBig(d("0.3"), negateBig(d("0.2")))), "0.10000000000000000001");
  assert.equal(text(addBig(d("0.1"), d("0.2"))), "0.3");
  assert.equal(text(divideBig(d("2"), d("3"))), "0.6666666666666666667");
  assert.equal(text(multiplyBig(d("42"), d("1.25"))), "52.5");
  assert.equal(text(d("0.1")), "0.1");
});

test("the digits read back as the same 64-bit value and one digit fewer does not", () => {
  // A fixed spread of decimal operands: short and long fractions, small and large magnitudes.
  const operands = ["0.1", "0.7", "1.1", "3.14159", "123.456", "0.000123", "98765.4321", "1e-9"];
  for (const a of operands) {
    for (const b of operands) {
      for (const x of [
        addBig(d(a), d(b)),
        addBig(d(a), negateBig(d(b))),
        multiplyBig(d(a), d(b)),
        divideBig(d(a), d(b)),
      ]) {
        if (x.mant === 0n) continue;
        const { digits, point } = shortestOf(x.mant, x.exp);
        const back = parseDecimal(`0.${digits}e${point}`);
        assert.deepEqual([back.mant, back.exp], [x.mant, x.exp], `${a}, ${b}: ${digits}`);
        if (digits.length > 1) {
          const cut = parseDecimal(`0.${digits.slice(0, -1)}e${point}`);
          assert.ok(cut.mant !== x.mant || cut.exp !== x.exp, `${digits} is not shortest`);
        }
      }
    }
  }
  function d(s: string) {
    return parseDecimal(s);
  }
});

test("Go's %g layout: exponent form below 1e-4 and from 1e6, two exponent digits", () => {
  assert.equal(goGeneralText(false, "12345675", 7), "1.2345675e+06");
  assert.equal(goGeneralText(false, "1", -6), "1e-07");
  assert.equal(goGeneralText(true, "15", 0), "-0.15");
  assert.equal(goGeneralText(false, "1", -3), "0.0001");
  assert.equal(goGeneralText(false, "123456", 6), "123456");
  assert.equal(goGeneralText(false, "25", 3), "250");
  assert.equal(goGeneralText(false, "1", 101), "1e+100");
});
