// Tests of prompt building for generate and chat.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  buildChatPrompt,
  buildGeneratePrompt,
  conversationFor,
  type PromptModel,
} from "./build-prompt.js";

/** A stored model with only what prompt building reads. */
function model(
  parts: Partial<Pick<PromptModel, "system" | "template" | "messages">> & { chatTemplate?: string },
): PromptModel {
  return {
    system: parts.system,
    template: parts.template,
    messages: parts.messages ?? [],
    facts: { chatTemplate: parts.chatTemplate },
  };
}

const CHATML =
  "{% for m in messages %}<{{ m.role }}>{{ m.content }}{% endfor %}{% if add_generation_prompt %}<assistant>{% endif %}";

describe("prompt building", () => {
  it("puts Modelfile MESSAGEs first and the Modelfile SYSTEM unless the request brings its own", () => {
    const m = model({ system: "S", messages: [{ role: "user", content: "m1" }] });
    assert.deepEqual(conversationFor(m, [{ role: "user", content: "q" }]), [
      { role: "system", content: "S" },
      { role: "user", content: "m1" },
      { role: "user", content: "q" },
    ]);
    assert.deepEqual(conversationFor(m, [{ role: "system", content: "mine" }]), [
      { role: "user", content: "m1" },
      { role: "system", content: "mine" },
    ]);
  });

  it("renders chat with the GGUF chat template, or a plain transcript without one", () => {
    const msgs = [{ role: "user", content: "hi" }];
    assert.equal(buildChatPrompt(model({ chatTemplate: CHATML }), msgs), "<user>hi<assistant>");
    assert.equal(buildChatPrompt(model({}), msgs), "user: hi\nassistant:");
  });

  it("renders generate raw, with a request template, with the chat template, or plain", () => {
    const chat = model({ chatTemplate: CHATML, system: "S" });
    assert.equal(buildGeneratePrompt(chat, { prompt: "p", raw: true }), "p");
    assert.equal(
      buildGeneratePrompt(chat, { prompt: "p", raw: false }),
      "<system>S<user>p<assistant>",
    );
    assert.equal(
      buildGeneratePrompt(chat, {
        prompt: "p",
        raw: false,
        template: "[{{ .System }}|{{ .Prompt }}]",
      }),
      "[S|p]",
    );
    assert.equal(
      buildGeneratePrompt(model({}), { prompt: "p", raw: false, system: "sys" }),
      "sys\n\np",
    );
  });
});
