import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { RegoObject, RegoSet, type Value } from "../value/value.js";
import { lookupBuiltin } from "./registry.js";
import { testContext } from "./testing/call-builtin.js";

const ctx = testContext();

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
    assert.equal(sprintf("hi %.2f", 3.1425), "hi 3.14");
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
      sprintf("%8.3f|%-8.2f|%08.3f", 3.14219, 2.5, -3.14219),
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

  it("prints a mismatched operand with %v under the directive's flags, as Go does", () => {
    assert.equal(sprintf("%8.4U", 0.009), "%!U(float64=   0.009)");
    assert.equal(sprintf("%+g", 5), "%!g(int=+5)");
    assert.equal(sprintf("%10.4c", "hello"), "%!c(string=      hell)");
    assert.equal(sprintf("%#.0d", 1.5), "%!d(float64=2.)");
    assert.equal(sprintf("%d", 1, -0.5), "1%!(EXTRA float64=-0.5)");
  });

  it("formats floats as hex and binary exponents and honours # for floats", () => {
    assert.equal(sprintf("%x %X", -7278895.378112793, 2.5), "-0x1.bc44bd833p+22 0X1.4P+01");
    assert.equal(sprintf("%.2x %#x", 1.8117904663085938, 2.5), "0x1.d0p+00 0x1.4000p+01");
    assert.equal(sprintf("%b", -82905149459838860), "-5181571841239929p+4");
    assert.equal(sprintf("%#.0f %#g %#.0e", -0.0012, 0.0001, 3), "-0. 0.000100000 %!e(int=3)");
  });

  it("formats integers as code points and octal like Go", () => {
    assert.equal(sprintf("%#O %O", 8, -8), "0o010 -0o10");
    assert.equal(sprintf("%U % 9.6U", -1, 0x472b), "U+FFFFFFFFFFFFFFFF  U+00472B");
    assert.equal(sprintf("%q %+q %05c", 0x1f600, 0xe9, 65), "'😀' '\\u00e9' 0000A");
    assert.equal(sprintf("%+.e", 0), "%!e(int=)");
  });

  it("applies big.Int's own padding rules", () => {
    assert.equal(sprintf("%#O", -(10n ** 24n) + 7n), "-0o323604157166316664077777771");
    assert.equal(
      sprintf("%030x|%+v", 2n ** 80n, 2n ** 70n),
      "000000000100000000000000000000|+1180591620717411303424",
    );
  });

  it("handles argument indexes, star operands and malformed directives like Go", () => {
    assert.equal(sprintf("%[2]*[1]d", 12, 5), "   12");
    assert.equal(sprintf("%[1]0d", 1), "%!d(BADINDEX)");
    assert.equal(sprintf("%[3][3]f", 1, 2, ""), "%![(string=)3]f");
    assert.equal(sprintf("%*d", "x", 1), "%!(BADWIDTH)1");
    assert.equal(sprintf("%.*d", -1, 7), "%!(BADPREC)7");
    assert.equal(sprintf("%-*d|", -4, 7), "7   |");
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
