// Tests of the Modelfile parser: commands, quoting, parameters and their errors.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseModelfile } from "./modelfile.js";

describe("Modelfile parser", () => {
  it("reads every supported instruction, case-insensitively, with comments and quoting", () => {
    const mf = parseModelfile(
      [
        "# a comment",
        "from ./model.gguf",
        "PARAMETER temperature 0.3",
        "PARAMETER num_ctx 1024",
        'PARAMETER stop "<|end|>"',
        "PARAMETER stop user:",
        'TEMPLATE """{{ .System }}',
        '{{ .Prompt }}"""',
        'SYSTEM "be brief"',
        "LICENSE MIT",
        "MESSAGE user hi",
        "MESSAGE assistant hello",
      ].join("\n"),
    );
    assert.equal(mf.from, "./model.gguf");
    assert.deepEqual(mf.parameters, {
      temperature: 0.3,
      num_ctx: 1024,
      stop: ["<|end|>", "user:"],
    });
    assert.equal(mf.template, "{{ .System }}\n{{ .Prompt }}");
    assert.equal(mf.system, "be brief");
    assert.deepEqual(mf.license, ["MIT"]);
    assert.deepEqual(mf.messages, [
      { role: "user", content: "hi" },
      { role: "assistant", content: "hello" },
    ]);
  });

  it("keeps every FROM in order (model, then projector); the first is the base", () => {
    const mf = parseModelfile("FROM ./model.gguf\nFROM ./mmproj.gguf\n");
    assert.equal(mf.from, "./model.gguf");
    assert.deepEqual(mf.froms, ["./model.gguf", "./mmproj.gguf"]);
    assert.throws(() => parseModelfile("FROM\n"), /line 1: FROM needs a model name or the path/);
  });

  it("collects ADAPTER paths in order, quoted or bare, and refuses an empty one", () => {
    const mf = parseModelfile('FROM base\nADAPTER ./lora.gguf\nadapter "/tmp/with space.gguf"\n');
    assert.deepEqual(mf.adapters, ["./lora.gguf", "/tmp/with space.gguf"]);
    assert.deepEqual(parseModelfile("FROM base").adapters, []);
    assert.throws(() => parseModelfile("FROM base\nADAPTER \n"), /line 2: ADAPTER needs the path/);
  });

  it("reports problems with their line numbers", () => {
    assert.throws(() => parseModelfile("PARAMETER temperature 1"), /no FROM line/);
    assert.throws(() => parseModelfile("FROM x\nBOGUS y"), /line 2: command must be one of/);
    assert.throws(
      () => parseModelfile("FROM x\nPARAMETER num_ctx big"),
      /line 2: parameter "num_ctx" must be an integer/,
    );
    assert.throws(() => parseModelfile("FROM x\nPARAMETER color red"), /unknown parameter "color"/);
    assert.throws(() => parseModelfile('FROM x\nSYSTEM """never closed'), /unterminated/);
    assert.throws(() => parseModelfile("FROM x\nMESSAGE robot hi"), /MESSAGE needs a role/);
  });
});
