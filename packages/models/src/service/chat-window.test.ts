// Tests of fitting a chat to the context window.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fitChatMessages, fitChatPrompt, type TokenCounter } from "./chat-window.js";

type Msg = { role: string; content: string };
const render = (ms: Msg[]) => ms.map((m) => `${m.role[0]}:${m.content}`).join("|");
/** One token per character: easy to reason about. */
const counter = (numCtx: number): TokenCounter => ({ numCtx, count: async (t) => t.length });

const chat: Msg[] = [
  { role: "system", content: "SYS" },
  { role: "user", content: "aaaaaaaaaa" },
  { role: "assistant", content: "bbbbbbbbbb" },
  { role: "user", content: "cccccccccc" },
  { role: "assistant", content: "dddddddddd" },
  { role: "user", content: "last" },
];

describe("fitting a chat into the context window (Ollama's rule)", () => {
  it("keeps everything when it fits", async () => {
    assert.equal(await fitChatPrompt(chat, render, counter(1000), true), render(chat));
  });

  it("keeps the system message and as many of the latest messages as fit", async () => {
    // "s:SYS|a:dddddddddd|u:last" is 26 characters; one more message would be 39.
    const p = await fitChatPrompt(chat, render, counter(30), true);
    assert.equal(p, "s:SYS|a:dddddddddd|u:last");
  });

  it("always keeps the last message, even alone too long", async () => {
    assert.equal(await fitChatPrompt(chat, render, counter(3), true), "s:SYS|u:last");
  });

  it("keeps every message with truncate false", async () => {
    assert.equal(await fitChatPrompt(chat, render, counter(3), false), render(chat));
  });

  it("counts what a message adds beyond its text (images) and returns the messages kept", async () => {
    const withImages = chat.map((m, i) => ({ ...m, images: i === 3 ? 20 : 0 }));
    const r = await fitChatMessages(withImages, render, counter(50), true, (m) => m.images);
    // "s:SYS|u:cccccccccc|a:dddddddddd|u:last" is 38 characters: it would fit but for the
    // 20 image tokens of message 3.
    assert.equal(r.prompt, "s:SYS|a:dddddddddd|u:last");
    assert.deepEqual(
      r.messages.map((m) => m.content),
      ["SYS", "dddddddddd", "last"],
    );
    const all = await fitChatMessages(withImages, render, counter(1000), true, (m) => m.images);
    assert.equal(all.messages.length, chat.length);
  });

  it("keeps system messages met among the dropped ones", async () => {
    const twoSystems = [...chat.slice(0, 3), { role: "system", content: "S2" }, ...chat.slice(3)];
    const p = await fitChatPrompt(twoSystems, render, counter(30), true);
    assert.equal(p, "s:SYS|s:S2|a:dddddddddd|u:last");
  });
});
