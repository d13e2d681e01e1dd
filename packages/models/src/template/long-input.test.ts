// Tests that prompt building and answer parsing stay linear on megabyte inputs.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { buildChatPrompt, buildGeneratePrompt, type PromptModel } from "./build-prompt.js";
import { renderChatTemplate } from "./chat-template.js";
import { renderGoTemplate } from "./go-template.js";
import { extractToolCalls } from "./tool-calls.js";

// Inputs of a megabyte and more: prompt building and answer parsing are linear in them. Before,
// whitespace next to a trim marker or after an unclosed tag made the lexers rescan the rest of
// the text from every position (4,000 spaces: 40 s); the generous test timeout catches that.

const MB = 1024 * 1024;
const PROMPT = "word ".repeat(MB / 5);

function model(parts: { template?: string; chatTemplate?: string }): PromptModel {
  return {
    system: undefined,
    template: parts.template,
    messages: [],
    facts: { chatTemplate: parts.chatTemplate },
  };
}

const GO_CHAT =
  "{{- range .Messages }}<|im_start|>{{ .Role }}\n{{ .Content }}<|im_end|>\n{{ end }}<|im_start|>assistant\n";
const JINJA_CHAT =
  "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content | trim }}<|im_end|>\n{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}";

describe("long inputs through prompt building", { timeout: 30_000 }, () => {
  it("renders a 1 MB prompt through a Go template, a Jinja template and a generate template", () => {
    const messages = [{ role: "user", content: PROMPT }];
    const expected = `<|im_start|>user\n${PROMPT}<|im_end|>\n<|im_start|>assistant\n`;
    assert.equal(buildChatPrompt(model({ template: GO_CHAT }), messages), expected);
    const jinja = buildChatPrompt(model({ chatTemplate: JINJA_CHAT }), messages);
    assert.equal(jinja, `<|im_start|>user\n${PROMPT.trim()}<|im_end|>\n<|im_start|>assistant\n`);
    const generate = buildGeneratePrompt(model({ template: "Q: {{ .Prompt }} A:" }), {
      prompt: PROMPT,
      raw: false,
    });
    assert.equal(generate, `Q: ${PROMPT} A:`);
  });

  it("renders a conversation of 10,000 messages", () => {
    const messages = Array.from({ length: 10_000 }, (_, i) => ({
      role: i % 2 === 0 ? "user" : "assistant",
      content: `${i}`,
    }));
    const out = buildChatPrompt(model({ template: GO_CHAT }), messages);
    assert.ok(out.startsWith("<|im_start|>user\n0<|im_end|>\n<|im_start|>assistant\n1<|im_end|>"));
    assert.ok(out.endsWith("<|im_start|>assistant\n9999<|im_end|>\n<|im_start|>assistant\n"));
  });

  it("lexes a template with a megabyte of white space around trim markers and in actions", () => {
    const spaces = " \n\t".repeat(MB / 3);
    const t = `a${spaces}{{- ${spaces}.X${spaces} -}}${spaces}b`;
    assert.equal(renderGoTemplate(t, { X: "x" }), "axb");
    assert.throws(() => renderGoTemplate(`{{-${spaces}`, {}), /template: :1: unclosed action/);
    assert.throws(() => renderGoTemplate("{{".repeat(MB / 2), {}), /unexpected "\{" in command/);
  });

  it("refuses Jinja sources the library would parse in quadratic time: huge, or long white space", () => {
    const limit = /template: chat template (longer than|has a run of more than)/;
    assert.throws(() => renderChatTemplate(`a${" ".repeat(MB)}{%- if x %}{% endif %}`, []), limit);
    assert.throws(() => renderChatTemplate("{{ x }}".repeat(MB / 4), []), limit);
    const spaced = `a${" ".repeat(1000)}{%- if true %}b{% endif %}`;
    assert.equal(renderChatTemplate(spaced, []), "ab");
  });

  it("parses tool calls out of a megabyte of answer, with unclosed tags and white space", () => {
    const tools = [{ type: "function", function: { name: "f" } }];
    const call = '<tool_call>{"name": "f", "arguments": {"a": 1}}</tool_call>';
    const noise = `<tool_call>${" ".repeat(MB)}`;
    const found = extractToolCalls(`${PROMPT}${call}`, tools);
    assert.equal(found.calls.length, 1);
    assert.equal(found.content, PROMPT.trim());
    const unclosed = extractToolCalls(`${call}${noise}`, tools);
    assert.deepEqual(unclosed.calls, [{ function: { index: 0, name: "f", arguments: { a: 1 } } }]);
    assert.equal(unclosed.content, "<tool_call>");
    const many = "<tool_call>".repeat(MB / 11);
    assert.deepEqual(extractToolCalls(many, tools), { content: many, calls: [] });
  });
});
