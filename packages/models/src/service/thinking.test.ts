// Tests of `think` values and of splitting reasoning from the answer.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { inferThinkingTags, templateUsesThink } from "./thinking.js";
import { ThinkingParser } from "./thinking-parser.js";

function split(pieces: string[], startInside = false) {
  const p = new ThinkingParser("<think>", "</think>");
  if (startInside) p.add("<think>");
  let thinking = "";
  let content = "";
  for (const piece of pieces) {
    const r = p.add(piece);
    thinking += r.thinking;
    content += r.content;
  }
  return { thinking, content };
}

describe("the thinking parser (Ollama's rules)", () => {
  it("splits reasoning from the answer across pieces, tags split too", () => {
    const r = split(["  <th", "ink>\n I wonder", " what</th", "ink>\n\n", "The answer."]);
    assert.deepEqual(r, { thinking: "I wonder what", content: "The answer." });
  });

  it("treats an answer that does not open with the tag as content", () => {
    assert.deepEqual(split([" Hello", " <think>x</think>"]), {
      thinking: "",
      content: " Hello <think>x</think>",
    });
  });

  it("starts inside the reasoning when the prompt opened it", () => {
    assert.deepEqual(split([" hmm", "</think>", " ok"], true), { thinking: "hmm", content: "ok" });
  });

  it("keeps reasoning that never closes as reasoning", () => {
    assert.deepEqual(split(["<think>a", " b</thi"]), { thinking: "a b", content: "" });
  });
});

describe("reading a Go template for thinking", () => {
  it("infers the tags around .Thinking in a range over .Messages", () => {
    const t =
      "{{- range .Messages }}{{ if .Thinking }}<think>{{ .Thinking }}</think>\n{{ end }}{{ .Content }}{{ end }}";
    assert.deepEqual(inferThinkingTags(t), { opening: "<think>", closing: "</think>" });
    assert.equal(inferThinkingTags("{{ .Prompt }}"), undefined);
  });

  it("sees .Think, .ThinkLevel and .IsThinkSet but not .Thinking", () => {
    assert.equal(templateUsesThink("{{ if .Think }}x{{ end }}"), true);
    assert.equal(templateUsesThink("{{ $.IsThinkSet }}"), true);
    assert.equal(templateUsesThink("{{ .Thinking }}"), false);
    // Read from the parsed template, so text that only mentions the field does not count.
    assert.equal(templateUsesThink("{{/* .Think */}}.Think {{ .Prompt }}"), false);
  });
});
