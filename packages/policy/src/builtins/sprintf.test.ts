import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { RegoObject, RegoSet, type Value } from "../value/value.js";
import { lookupBuiltin } from "./registry.js";
import type { BuiltinContext } from "./registry-types.js";

const ctx: BuiltinContext = { nowNs: 0n, cache: new Map(), print: () => {}, strict: true };

function sprintf(format: string, ...args: Value[]): Value | undefined {
  const def = lookupBuiltin("sprintf");
  assert.ok(def, "sprintf is registered");
  return def.impl([format, args], ctx);
}

describe("sprintf", () => {
  it("formats strings, integers and floats with Go's verbs", () => {
    assert.equal(sprintf("hi"), "hi");
    assert.equal(sprintf("hi %s", "there"), "hi there");
    assert.equal(sprintf("hi %02d", 5), "hi 05");
    assert.equal(sprintf("hi %02X.%02X", 127, 1), "hi 7F.01");
    assert.equal(sprintf("hi %.2f", 3.1415), "hi 3.14");
    assert.equal(sprintf("%x %o %b %#x %#o %O", 255, 8, 5, 255, 8, 8), "ff 10 101 0xff 010 0o10");
    assert.equal(sprintf("%c%c %U %#U", 65, 0x1f600, 0x41, 0x41), "A😀 U+0041 U+0041 'A'");
    assert.equal(sprintf("%%"), "%");
  });

  it("applies widths, precision and flags", () => {
    assert.equal(
      sprintf("%5s|%-5s|%05d|%-05d|%+d|% d", "a", "b", 42, 42, 3, 3),
      "    a|b    |00042|42   |+3| 3",
    );
    assert.equal(
      sprintf("%8.3f|%-8.2f|%08.3f", 3.14159, 2.5, -3.14159),
      "   3.142|2.50    |-003.142",
    );
    assert.equal(sprintf("%.3s|%*d|%-*d|", "abcdef", 4, 7, 3, 7), "abc|   7|7  |");
    assert.equal(sprintf("%.5d|%.0d|%#08x", 42, 0, 255), "00042||0x000000ff");
  });

  it("rounds floats like strconv (exact value, ties to even)", () => {
    assert.equal(sprintf("%.0f %.0f %.1f %.2f", 2.5, 3.5, 0.25, 1.005), "2 4 0.2 1.00");
    assert.equal(
      sprintf("%e %E %.3e", 1234.5678, 0.000123, 5.0e-10),
      "1.234568e+03 1.230000E-04 5.000e-10",
    );
    assert.equal(
      sprintf("%g %.3g %G %g", 1234.5678, 1234.5678, 1e-10, 0.0001),
      "1234.5678 1.23e+03 1E-10 0.0001",
    );
    assert.equal(sprintf("%f", 1e22), "10000000000000000000000.000000");
  });

  it("prints %v of floats with Go's shortest form, switching to exponents at 1e21", () => {
    assert.equal(sprintf("%v %v %v", 0.1, 1e-7, 1234567.5), "0.1 1e-07 1.2345675e+06");
    assert.equal(sprintf("%v", 1e21), "1e+21");
  });

  it("prints composite and other values as Rego text", () => {
    assert.equal(sprintf("hi %v", ["there", 5, 3.14]), 'hi ["there", 5, 3.14]');
    assert.equal(sprintf("%v", RegoSet.of([])), "set()");
    assert.equal(
      sprintf("%v", RegoObject.fromEntries([["a", RegoSet.of([2, 1])]])),
      '{"a": {1, 2}}',
    );
    assert.equal(sprintf("hi %s %v", true, null), "hi true null");
  });

  it("prints big integers exactly", () => {
    assert.equal(sprintf("%s", 123456789123456789123n), "123456789123456789123");
    assert.equal(
      sprintf("%d %x", 1208925819614629174706175n, 2n ** 80n),
      "1208925819614629174706175 100000000000000000000",
    );
    assert.equal(sprintf("%d", 2n ** 62n), "4611686018427387904");
  });

  it("reports mismatched, missing and extra operands as Go does", () => {
    assert.equal(sprintf("%d", "x"), "%!d(string=x)");
    assert.equal(sprintf("%s", 5), "%!s(int=5)");
    assert.equal(sprintf("%d", 1.5), "%!d(float64=1.5)");
    assert.equal(sprintf("%t", true), "%!t(string=true)");
    assert.equal(sprintf("%z", 3), "%!z(int=3)");
    assert.equal(sprintf("%d %d", 1), "1 %!d(MISSING)");
    assert.equal(sprintf("%d", 1, "a"), "1%!(EXTRA string=a)");
    assert.equal(sprintf("%"), "%!(NOVERB)");
    assert.equal(sprintf("%[2]d %[1]d", 1, 2), "2 1");
    assert.equal(sprintf("%[3]d", 1), "%!d(BADINDEX)");
    assert.equal(sprintf("%e", 2n ** 70n), "%!e(big.Int=1180591620717411303424)");
  });

  it("quotes strings with %q and hex-encodes them with %x", () => {
    assert.equal(sprintf("%q", 'hi\n"'), '"hi\\n\\""');
    assert.equal(sprintf("%q %+q", "é", "é"), '"é" "\\u00e9"');
    assert.equal(sprintf("%#q", "raw"), "`raw`");
    assert.equal(sprintf("%x % X", "hi", "hi"), "6869 68 69");
  });

  it("rejects a non-string format and a non-array argument list", () => {
    const def = lookupBuiltin("sprintf");
    assert.ok(def);
    assert.throws(() => def.impl([1, []], ctx), {
      message: "sprintf: operand 1 must be string but got number",
    });
    assert.throws(() => def.impl(["%s", "x"], ctx), {
      message: "sprintf: operand 2 must be array but got string",
    });
  });
});
