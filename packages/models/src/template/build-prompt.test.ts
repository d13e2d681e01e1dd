import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { nativeMessages, nativeOptions } from "../openai/translate.js";
import type { StoredModel } from "../store/model-store.js";
import { buildChatPrompt, buildGeneratePrompt, conversationFor } from "./build-prompt.js";

/** A stored model with only what prompt building reads. */
function model(
  parts: Partial<Pick<StoredModel, "system" | "template" | "messages">> & { chatTemplate?: string },
): StoredModel {
  return {
    system: parts.system,
    template: parts.template,
    messages: parts.messages ?? [],
    facts: { chatTemplate: parts.chatTemplate },
  } as unknown as StoredModel;
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

describe("OpenAI translation", () => {
  it("turns content parts into text and images, and tool results into named tool messages", () => {
    const msgs = nativeMessages([
      {
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
        ],
      },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: '{"a":1}' } }],
      },
      { role: "tool", tool_call_id: "c1", content: "42" },
    ]);
    assert.deepEqual(msgs[0], { role: "user", content: "look", images: ["AAAA"] });
    assert.deepEqual(msgs[1]?.tool_calls, [{ function: { name: "f", arguments: { a: 1 } } }]);
    assert.deepEqual(msgs[2], { role: "tool", content: "42", tool_name: "f" });
    assert.throws(
      () =>
        nativeMessages([
          { role: "assistant", tool_calls: [{ function: { name: "f", arguments: "{bad" } }] },
        ]),
      /invalid tool call arguments/,
    );
  });

  it("maps sampling fields, with OpenAI's defaults of 1.0 for temperature and top_p", () => {
    assert.deepEqual(nativeOptions({}), { temperature: 1, top_p: 1 });
    assert.deepEqual(nativeOptions({ temperature: 0.2, max_tokens: 5, seed: 3, stop: "x" }), {
      temperature: 0.2,
      top_p: 1,
      num_predict: 5,
      seed: 3,
      stop: ["x"],
    });
    assert.throws(() => nativeOptions({ temperature: "hot" }), /temperature must be a number/);
  });
});
