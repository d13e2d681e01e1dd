// Tests of the registry client: URLs and the token challenge.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseModelName } from "../store/model-name.js";
import { registryBase } from "./registry-client.js";

const name = (text: string) => {
  const n = parseModelName(text);
  assert.ok(n, text);
  return n;
};

describe("where pull and push go", () => {
  it("sends default names to registry.ollama.ai, or to LLMSRV_REGISTRY when set", () => {
    assert.equal(registryBase(name("llama3.2"), {}), "https://registry.ollama.ai");
    assert.equal(
      registryBase(name("someone/model:7b"), { mirror: "http://mirror.lan:5000" }),
      "http://mirror.lan:5000",
    );
  });

  it("sends a name with its own host there, over HTTP only when insecure", () => {
    assert.equal(registryBase(name("localhost:5000/ns/m"), {}), "https://localhost:5000");
    assert.equal(
      registryBase(name("localhost:5000/ns/m"), { insecure: true, mirror: "http://x" }),
      "http://localhost:5000",
    );
  });

  it("maps hf.co/<user>/<repo>:<quant> to the same protocol at https://hf.co, as Ollama does", () => {
    const n = name("hf.co/bartowski/Llama-3.2-1B-Instruct-GGUF:Q4_K_M");
    assert.deepEqual(n, {
      host: "hf.co",
      namespace: "bartowski",
      model: "Llama-3.2-1B-Instruct-GGUF",
      tag: "Q4_K_M",
    });
    assert.equal(registryBase(n, { mirror: "http://mirror" }), "https://hf.co");
    assert.equal(name("hf.co/unsloth/Qwen3-0.6B-GGUF").tag, "latest");
    assert.equal(registryBase(name("huggingface.co/a/b:Q8_0"), {}), "https://huggingface.co");
  });
});
