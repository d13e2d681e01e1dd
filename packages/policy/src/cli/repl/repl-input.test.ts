import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { bracketBalance, classify } from "./repl-input.js";

describe("bracketBalance", () => {
  it("counts open brackets outside strings and comments", () => {
    assert.equal(bracketBalance("p if {"), 1);
    assert.equal(bracketBalance("p if { x := [1, (2"), 3);
    assert.equal(bracketBalance('p if { x := "{[(" } # {'), 0);
    assert.equal(bracketBalance("x := `{`"), 0);
    assert.equal(bracketBalance('s := "a\\"{"'), 0);
  });
});

describe("classify", () => {
  it("tells commands, rules and queries apart as opa run does", () => {
    assert.deepEqual(classify("  "), { kind: "empty" });
    assert.deepEqual(classify("show"), { kind: "command", name: "show", arg: "" });
    assert.deepEqual(classify("unset p"), { kind: "command", name: "unset", arg: "p" });
    assert.deepEqual(classify("package a.b"), { kind: "package", path: "a.b" });
    assert.deepEqual(classify('input := {"a": 1}'), { kind: "input", term: '{"a": 1}' });
    assert.equal(classify("pi := 3.14").kind, "rules");
    assert.equal(classify("f(x) := x + 1").kind, "rules");
    assert.equal(classify("p if { true }").kind, "rules");
    assert.equal(classify("x = 1").kind, "query");
    assert.equal(classify("data.a.b[x]").kind, "query");
    assert.notEqual(classify("show me").kind, "command");
  });
});
