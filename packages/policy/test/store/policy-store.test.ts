/** The store's snapshots: writes build new states and never change one a decision holds. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PolicyEngine } from "../../src/engine.js";
import { applyPatch, makeDir, nonEmpty } from "../../src/store/document-patch.js";
import { PolicyStore } from "../../src/store/policy-store.js";
import { fromJSON, toJSON } from "../../src/value/value.js";

function engineWith(data: unknown): PolicyEngine {
  const engine = new PolicyEngine();
  engine.addModule("p.rego", "package p\n\nsum := data.a.x + data.a.y\n");
  engine.addData([], data);
  engine.compile();
  return engine;
}

describe("PolicyStore", () => {
  it("leaves the engine a decision already holds unchanged by a write", () => {
    const policies = [{ file: "p.rego", source: "package p\n\nsum := data.a.x + data.a.y\n" }];
    const store = new PolicyStore(engineWith({ a: { x: 1, y: 2 }, list: [1] }), policies);
    const held = store.engine;
    store.writeData(
      (d) => applyPatch(applyPatch(d, "replace", ["a", "x"], 10), "add", ["list", "-"], 2),
      ["a"],
    );
    assert.deepEqual(toJSON(held.evalRef(["p", "sum"]) ?? null), 3);
    assert.deepEqual(toJSON(held.evalRef(["list"]) ?? null), [1]);
    assert.deepEqual(toJSON(store.engine.evalRef(["p", "sum"]) ?? null), 12);
    assert.deepEqual(toJSON(store.engine.evalRef(["list"]) ?? null), [1, 2]);
  });

  it("keeps the state when an update throws part-way", () => {
    const store = new PolicyStore(engineWith({ a: { x: 1, y: 2 } }), []);
    const before = store.engine;
    assert.throws(() =>
      store.writeData(
        (d) => applyPatch(applyPatch(d, "replace", ["a", "x"], 5), "remove", ["zz"]),
        [],
      ),
    );
    assert.equal(store.engine, before);
  });
});

describe("document patches", () => {
  it("never change the document they are given", () => {
    const root = fromJSON({ a: { b: [1, 2], c: { d: 1 } } });
    const text = JSON.stringify(toJSON(root));
    applyPatch(root, "add", ["a", "b", "0"], 0);
    applyPatch(root, "remove", ["a", "c", "d"]);
    applyPatch(root, "replace", ["a", "b", "1"], 9);
    makeDir(root, ["a", "c", "e", "f"]);
    assert.equal(JSON.stringify(toJSON(root)), text);
  });

  it("read non-empty as OPA: a document there, or a non-object ancestor", () => {
    const root = fromJSON({ a: { b: 1 }, s: "x", o: {} });
    assert.equal(nonEmpty(root, ["a", "b"]), true);
    assert.equal(nonEmpty(root, ["s", "t"]), true);
    assert.equal(nonEmpty(root, ["o", "t"]), false);
    assert.equal(nonEmpty(root, ["none", "t"]), false);
  });
});
