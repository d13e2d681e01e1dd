// Tests of model names: parsing, defaults, display and invalid names.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { displayName, parseModelName } from "./model-name.js";

describe("model names", () => {
  it("applies Ollama's defaults and keeps a registry port out of the tag", () => {
    assert.deepEqual(parseModelName("demo"), {
      host: "registry.ollama.ai",
      namespace: "library",
      model: "demo",
      tag: "latest",
    });
    assert.deepEqual(parseModelName("user/m:q4"), {
      host: "registry.ollama.ai",
      namespace: "user",
      model: "m",
      tag: "q4",
    });
    assert.deepEqual(parseModelName("localhost:5000/ns/m"), {
      host: "localhost:5000",
      namespace: "ns",
      model: "m",
      tag: "latest",
    });
  });

  it("shows the shortest form", () => {
    const show = (s: string) => displayName(parseModelName(s) ?? assert.fail(s));
    assert.equal(show("demo"), "demo:latest");
    assert.equal(show("user/m:q4"), "user/m:q4");
    assert.equal(show("example.com:5000/ns/m:tag"), "example.com:5000/ns/m:tag");
  });

  it("rejects invalid names", () => {
    for (const s of ["", "bad name", "a/b/c/d", "-x", "m:", "ns.dot/m", ":tag"])
      assert.equal(parseModelName(s), undefined, s);
  });
});
