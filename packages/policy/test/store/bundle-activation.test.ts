/** PolicyStore.activateBundle: OPA's all-or-nothing activation of a downloaded bundle. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PolicyEngine } from "../../src/engine.js";
import { BundleActivationError, PolicyStore } from "../../src/store/policy-store.js";
import { fromJSON, toJSON, type Value } from "../../src/value/value.js";

function store(data: unknown = {}) {
  const engine = new PolicyEngine();
  engine.addModule("local.rego", "package local\n\nv := 1\n");
  engine.addData([], data);
  engine.compile();
  return new PolicyStore(engine, [{ file: "local.rego", source: "package local\n\nv := 1\n" }]);
}

/** The base document without `system.bundles` (what activation records there is tested apart). */
const data = (s: PolicyStore) => {
  const all = toJSON(s.engine.baseData()) as Record<string, unknown>;
  const { system, ...rest } = all;
  return rest;
};
const records = (s: PolicyStore) => toJSON(s.engine.evalRef(["system", "bundles"]) as Value);

describe("PolicyStore.activateBundle", () => {
  it("replaces the bundle's policies and the data under its old and new roots only", () => {
    const s = store({ keep: 1, a: { old: true } });
    s.activateBundle({
      name: "b",
      roots: ["a"],
      revision: "r1",
      modules: [{ file: "b/a/p.rego", source: "package a\n\nx := data.a.n\n" }],
      documents: [{ path: ["a"], value: fromJSON({ n: 1 }) }],
    });
    assert.deepEqual(data(s), { keep: 1, a: { n: 1 } });
    assert.equal(s.engine.evalRef(["a", "x"]), 1);
    s.activateBundle({
      name: "b",
      roots: ["c"],
      revision: "r2",
      modules: [{ file: "b/c/q.rego", source: "package c\n\ny := 2\n" }],
      documents: [{ path: ["c", "d"], value: fromJSON({ m: 2 }) }],
    });
    // Old roots' data and the old module are gone; files and other data stay.
    assert.deepEqual(data(s), { keep: 1, c: { d: { m: 2 } } });
    // Without a manifest, the record holds the revision and roots the activation was given.
    assert.deepEqual(records(s), { b: { manifest: { revision: "r2", roots: ["c"] }, etag: "" } });
    assert.deepEqual(
      s.policies.map((p) => p.file),
      ["local.rego", "b/c/q.rego"],
    );
    assert.equal(s.engine.evalRef(["a", "x"]), undefined);
    assert.throws(() => s.checkScope(["c", "z"]), /path c\/z is owned by bundle "b"/);
    s.checkScope(["a", "z"]); // no longer owned
  });

  it("refuses overlapping roots, contents outside the roots and compile errors, changing nothing", () => {
    const s = store({ keep: 1 });
    s.activateBundle({ name: "one", roots: ["x/y"], modules: [], documents: [] });
    const before = s.engine;
    const refuse = (bundle: Parameters<PolicyStore["activateBundle"]>[0], message: string) => {
      assert.throws(
        () => s.activateBundle(bundle),
        (e: unknown) => e instanceof BundleActivationError && e.message === message,
      );
      assert.equal(s.engine, before);
    };
    refuse(
      { name: "two", roots: ["x"], modules: [], documents: [] },
      "detected overlapping roots in bundle manifest with: [two one]",
    );
    refuse(
      {
        name: "two",
        roots: ["p"],
        modules: [{ file: "two/q.rego", source: "package q\n\nz := 1\n" }],
        documents: [],
      },
      "manifest roots [p] do not permit 'package q' in module 'two/q.rego'",
    );
    refuse(
      { name: "two", roots: ["p"], modules: [], documents: [{ path: ["q"], value: fromJSON(1) }] },
      "manifest roots [p] do not permit data at path '/q' (hint: check bundle directory structure)",
    );
    assert.throws(
      () =>
        s.activateBundle({
          name: "two",
          roots: ["p"],
          modules: [{ file: "two/p.rego", source: "package p\n\nz := := 1\n" }],
          documents: [],
        }),
      (e: unknown) =>
        e instanceof BundleActivationError && e.errors[0]?.code === "rego_parse_error",
    );
    assert.equal(s.engine, before);
    assert.deepEqual(data(s), { keep: 1 });
    assert.deepEqual(Object.keys(records(s) as object), ["one"]);
  });
});
