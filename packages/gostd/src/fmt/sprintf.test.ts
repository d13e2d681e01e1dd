// fmt.Sprintf against Go's documented verbs, flags and notes for mismatched operands.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { sprintf } from "./sprintf.js";
import { GoFloat, GoNamed, GoStruct } from "./value.js";

describe("fmt.Sprintf", () => {
  it("formats integers with width, precision, sign and base flags", () => {
    assert.equal(
      sprintf("%d|%5d|%-5d|%05d|%+d|%x|%#X|%o|%b", [42, 42, 42, -42, 7, 255, 255, 8, 5]),
      "42|   42|42   |-0042|+7|ff|0XFF|10|101",
    );
    assert.equal(sprintf("%.3d|%c|%q|%U", [7, 0x41, 0x41, 0x41]), "007|A|'A'|U+0041");
  });

  it("formats floats as strconv does, rounding the exact binary value half to even", () => {
    assert.equal(
      sprintf("%f|%.2f|%e|%g|%v", [1.5, 2.675, new GoFloat(123456), new GoFloat(1e21), 0.25]),
      "1.500000|2.67|1.234560e+05|1e+21|0.25",
    );
    assert.equal(
      sprintf("%v %v %.3g %8.2f", [new GoFloat(1_000_000), new GoFloat(3), 1234.5678, -3.14659]),
      "1e+06 3 1.23e+03    -3.15",
    );
  });

  it("quotes and hex-encodes strings, and truncates with a precision", () => {
    assert.equal(
      sprintf("%s|%q|%x|%.2s|%5s|%-5s|", ["hé", 'a"\n', "hi", "héllo", "ab", "ab"]),
      'hé|"a\\"\\n"|6869|hé|   ab|ab   |',
    );
    assert.equal(sprintf("%t %v", [true, false]), "true false");
  });

  it("prints composite values with %v and Go's type names with %T", () => {
    assert.equal(
      sprintf("%v %v %T %T", [{ b: 1, a: "x" }, [1, "a"], "s", new GoFloat(1)]),
      "map[a:x b:1] [1 a] string float64",
    );
    const type = { name: "main.T", fields: [{ name: "A", json: "a" }] };
    assert.equal(
      sprintf("%v %s", [new GoStruct(type, { A: 1 }), new GoNamed({ name: "main.N" }, "n")]),
      "{1} n",
    );
  });

  it("writes Go's notes for wrong types, missing and extra operands", () => {
    assert.equal(sprintf("%d %s", ["x"]), "%!d(string=x) %!s(MISSING)");
    assert.equal(sprintf("%d", [1, "a"]), "1%!(EXTRA string=a)");
    assert.equal(sprintf("%", []), "%!(NOVERB)");
    assert.equal(sprintf("%[2]d %[1]d %[3]d", [1, 2]), "2 1 %!d(BADINDEX)");
    assert.equal(
      sprintf("%d", [new GoNamed({ name: "json.Number" }, "42")]),
      "%!d(json.Number=42)",
    );
  });
});
