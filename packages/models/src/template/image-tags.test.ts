// Tests of Ollama's [img-N] tags in chat and generate prompts.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { buildChatPrompt, buildGeneratePrompt, type PromptModel } from "./build-prompt.js";
import { checkImageTags, tagImages } from "./image-tags.js";

function model(parts: { template?: string; chatTemplate?: string; system?: string }): PromptModel {
  return {
    system: parts.system,
    template: parts.template,
    messages: [],
    facts: { chatTemplate: parts.chatTemplate },
  };
}

const MESSAGES_TEMPLATE =
  "{{ range .Messages }}<{{ .Role }}{{ if .Images }} images={{ len .Images }}{{ end }}>{{ .Content }}{{ end }}<assistant>";
const PROMPT_TEMPLATE =
  "{{ if .System }}[S:{{ .System }}]{{ end }}[U:{{ .Prompt }}][A:{{ .Response }}]";
const CHATML =
  "{% for m in messages %}<{{ m.role }}>{{ m.content }}{% endfor %}{% if add_generation_prompt %}<assistant>{% endif %}";

describe("image tags", () => {
  it("numbers images across the messages, before each message's text", () => {
    const { messages, media } = tagImages([
      { role: "user", content: "two", images: ["a", "b"] },
      { role: "assistant", content: "ok" },
      { role: "user", content: "one more", images: ["c"] },
    ]);
    assert.deepEqual(
      messages.map((m) => m.content),
      ["[img-0][img-1]two", "ok", "[img-2]one more"],
    );
    assert.deepEqual(media, ["a", "b", "c"]);
  });

  it("puts an image where the text writes [img], the rest before the text", () => {
    const { messages } = tagImages([
      { role: "user", content: "first" },
      { role: "user", content: "see [img] and", images: ["a", "b"] },
    ]);
    assert.equal(messages[1]?.content, "[img-1]see [img-0] and");
  });

  it("leaves the given messages unchanged", () => {
    const input = [{ role: "user", content: "x", images: ["a"] }];
    tagImages(input);
    assert.equal(input[0]?.content, "x");
  });

  it("refuses a prompt tagging media the request lacks", () => {
    checkImageTags("[img-0] [img-1]", 2);
    checkImageTags("no tags", 0);
    assert.throws(
      () => checkImageTags("look [img-2]", 2),
      (e: { code?: string; message?: string }) =>
        e.code === "bad_request" &&
        /^invalid image index: 2 \(the prompt tags \[img-2\] but the request carries 2 images\)$/.test(
          e.message ?? "",
        ),
    );
  });

  it("places chat images in the prompt through a .Messages template, which sees .Images", () => {
    const tagged = tagImages([
      { role: "user", content: "what is this?", images: [1, 2] },
      { role: "assistant", content: "cats" },
      { role: "user", content: "and this?", images: [3] },
    ]).messages;
    assert.equal(
      buildChatPrompt(model({ template: MESSAGES_TEMPLATE }), tagged),
      "<user images=2>[img-0][img-1]what is this?<assistant>cats<user images=1>[img-2]and this?<assistant>",
    );
    assert.equal(
      buildChatPrompt(model({ chatTemplate: CHATML }), tagged),
      "<user>[img-0][img-1]what is this?<assistant>cats<user>[img-2]and this?<assistant>",
    );
  });

  it("places generate images as Ollama does: [img-N] user turns merged before the prompt", () => {
    const input = { prompt: "describe", raw: false, imageCount: 2 };
    assert.equal(
      buildGeneratePrompt(model({ template: MESSAGES_TEMPLATE, system: "S" }), input),
      "<system>S<user>[img-0]\n\n[img-1]\n\ndescribe<assistant>",
    );
    assert.equal(
      buildGeneratePrompt(model({ template: PROMPT_TEMPLATE }), input),
      "[U:[img-0]\n\n[img-1]\n\ndescribe][A:",
    );
    assert.equal(
      buildGeneratePrompt(model({ chatTemplate: CHATML }), input),
      "<user>[img-0]\n\n[img-1]\n\ndescribe<assistant>",
    );
    assert.equal(buildGeneratePrompt(model({}), input), "[img-0]\n\n[img-1]\n\ndescribe");
    // Raw mode sends the prompt as written: it places its own tags.
    assert.equal(
      buildGeneratePrompt(model({ template: PROMPT_TEMPLATE }), { ...input, raw: true }),
      "describe",
    );
  });
});
