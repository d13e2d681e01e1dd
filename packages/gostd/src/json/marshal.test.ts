// encoding/json's Marshal of Go values, and decoding into `any`.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { GoFloat, GoStruct, NIL_SLICE } from "../fmt/value.js";
import { fromJson, goJson, jsonString } from "./marshal.js";

describe("encoding/json", () => {
  it("escapes strings HTML-safely, with U+2028 and U+2029", () => {
    assert.equal(jsonString('<a&b>"\u2028'), '"\\u003ca\\u0026b\\u003e\\"\\u2028"');
    assert.equal(jsonString("<\b\f\u0001\ud800", false), '"<\\b\\f\\u0001\ufffd"');
  });

  it("sorts map keys, writes struct fields in order with omitempty, and nil slices as null", () => {
    const type = {
      name: "T",
      fields: [
        { name: "B", json: "b" },
        { name: "A", json: "a", omitEmpty: true },
      ],
    };
    assert.equal(goJson({ z: 1, a: [true, null] }), '{"a":[true,null],"z":1}');
    assert.equal(goJson(new GoStruct(type, { B: "x", A: "" })), '{"b":"x"}');
    assert.equal(goJson(NIL_SLICE), "null");
    assert.throws(() => goJson(new GoFloat(Number.NaN)), {
      message: "json: unsupported value: NaN",
    });
  });

  it("decodes numbers into float64, as Go's decoder into any does", () => {
    assert.deepEqual(fromJson({ n: 1, l: [2] }), { n: new GoFloat(1), l: [new GoFloat(2)] });
  });
});
