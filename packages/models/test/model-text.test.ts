import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestServer, storiesSkip, type TestServer } from "./harness.js";
import { createStories, ndjsonLines, post, sseEvents } from "./stories-model.js";

/**
 * The model's own text, exactly: with greedy sampling, stories260K continues
 * "Once upon a time, there was a" with " little girl named Lily. She ...".
 */
const PROMPT = "Once upon a time, there was a";
const GREEDY = { temperature: 0, num_predict: 12 };

type Json = Record<string, unknown>;

describe("the model's text, exactly (stories260K)", {
  skip: storiesSkip(),
  timeout: 300_000,
}, () => {
  let server: TestServer;
  let url: string;

  before(async () => {
    server = await startTestServer({}, { ensureDemo: false });
    url = server.url;
    // A template that is just the prompt: every route sends exactly PROMPT to the model.
    await createStories(url, "story", { template: "{{ .Prompt }}" });
  });
  after(() => server.stop());

  /** The answer of every route, streamed and not, for the same options. */
  async function everyRoute(options: Json): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const stream of [false, true]) {
      const tag = stream ? "stream" : "once";
      const gen = await post(`${url}/api/generate`, {
        model: "story",
        prompt: PROMPT,
        raw: true,
        stream,
        options,
      });
      out[`generate raw ${tag}`] = (await ndjsonLines(gen)).map((l) => l.response).join("");
      const tmpl = await post(`${url}/api/generate`, {
        model: "story",
        prompt: PROMPT,
        stream,
        options,
      });
      out[`generate ${tag}`] = (await ndjsonLines(tmpl)).map((l) => l.response).join("");
      const chat = await post(`${url}/api/chat`, {
        model: "story",
        messages: [{ role: "user", content: PROMPT }],
        stream,
        options,
      });
      out[`chat ${tag}`] = (await ndjsonLines(chat))
        .map((l) => (l.message as Json).content)
        .join("");
      const openai = {
        model: "story",
        stream,
        temperature: 0,
        max_tokens: options.num_predict,
        stop: options.stop,
      };
      const cmpl = await post(`${url}/v1/completions`, { ...openai, prompt: PROMPT });
      out[`v1 completions ${tag}`] = stream
        ? (await sseEvents(cmpl)).map((e) => (e.choices as Json[])[0]?.text ?? "").join("")
        : String(((await cmpl.json()) as { choices: Json[] }).choices[0]?.text);
      const chatc = await post(`${url}/v1/chat/completions`, {
        ...openai,
        messages: [{ role: "user", content: PROMPT }],
      });
      out[`v1 chat ${tag}`] = stream
        ? (await sseEvents(chatc))
            .map((e) => ((e.choices as Json[])[0]?.delta as Json | undefined)?.content ?? "")
            .join("")
        : String(
            (((await chatc.json()) as { choices: Json[] }).choices[0]?.message as Json | undefined)
              ?.content,
          );
    }
    return out;
  }

  it("keeps the first token's leading space in every route, streamed and not", async () => {
    const answers = await everyRoute(GREEDY);
    assert.equal(Object.keys(answers).length, 10);
    for (const [route, text] of Object.entries(answers)) {
      assert.ok(text.startsWith(" little girl"), `${route}: ${JSON.stringify(text)}`);
      assert.equal(text, answers["generate raw once"], route);
    }
  });

  it("stops at a stop sequence that is a whole token with its space, leaving it out", async () => {
    const answers = await everyRoute({ ...GREEDY, stop: [" girl"] });
    for (const [route, text] of Object.entries(answers)) assert.equal(text, " little", route);
  });

  it("stops at a stop sequence spanning tokens, with a space inside", async () => {
    const answers = await everyRoute({ ...GREEDY, stop: ["named Lily"] });
    for (const [route, text] of Object.entries(answers)) assert.equal(text, " little girl ", route);
  });

  it("stops inside a token (the stop text is cut out of the token's piece)", async () => {
    const answers = await everyRoute({ ...GREEDY, stop: ["irl na"] });
    for (const [route, text] of Object.entries(answers)) assert.equal(text, " little g", route);
  });

  it("releases text held back for a partial match that then fails", async () => {
    const plain = await everyRoute(GREEDY);
    // " girl named" starts like "girl scout" (held back from "g" to "girl ") and then differs.
    const answers = await everyRoute({ ...GREEDY, stop: ["girl scout", "Lily!"] });
    for (const [route, text] of Object.entries(answers)) assert.equal(text, plain[route], route);
  });

  it("reports done_reason stop and counts the tokens up to the stop", async () => {
    const r = await post(`${url}/api/generate`, {
      model: "story",
      prompt: PROMPT,
      raw: true,
      stream: false,
      options: { ...GREEDY, stop: ["named Lily"] },
    });
    const body = (await r.json()) as Json;
    assert.equal(body.done_reason, "stop");
    assert.equal(body.response, " little girl ");
    // " little", " g", "ir", "l", " named", " Lily": the stop completes on the sixth token.
    assert.equal(body.eval_count, 6);
  });
});
