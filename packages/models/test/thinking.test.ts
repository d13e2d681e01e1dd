import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { postJson, startTestServer, storiesSkip, type TestServer } from "./harness.js";
import { createStories, ndjsonLines, post, sseEvents } from "./stories-model.js";

type Json = Record<string, unknown>;

/** A thinking template: past reasoning in <think> tags, and the flag opening a new one. */
const TEMPLATE =
  "{{- range .Messages }}{{ if .Thinking }}<think>{{ .Thinking }}</think>{{ end }}{{ .Content }}{{ end }}{{ if .Think }}<think>{{ end }}";
const PROMPT = "Once upon a time, there was a";
const OPTS = { temperature: 0, num_predict: 10 };

describe("think (stories260K with a thinking template)", {
  skip: storiesSkip(),
  timeout: 300_000,
}, () => {
  let server: TestServer;
  let url: string;
  /** What the model writes after the prompt with the reasoning opened. */
  let reasoning: string;

  before(async () => {
    server = await startTestServer({}, { ensureDemo: false });
    url = server.url;
    await createStories(url, "thinker", { template: TEMPLATE });
    await createStories(url, "plain");
    const raw = await postJson(`${url}/api/generate`, {
      model: "thinker",
      prompt: `${PROMPT}<think>`,
      raw: true,
      stream: false,
      options: OPTS,
    });
    reasoning = String((raw.body as Json).response).trimStart();
    assert.ok(reasoning.length > 0);
  });
  after(() => server.stop());

  const chat = (body: Json) =>
    postJson(`${url}/api/chat`, {
      model: "thinker",
      messages: [{ role: "user", content: PROMPT }],
      stream: false,
      options: OPTS,
      ...body,
    });

  it("thinks by default: the flag reaches the template and the reasoning is split out", async () => {
    for (const think of [undefined, true, "high"]) {
      const r = await chat({ think });
      assert.equal(r.status, 200, r.text);
      const message = (r.body as Json).message as Json;
      assert.deepEqual([message.thinking, message.content], [reasoning, ""], String(think));
    }
  });

  it("think false leaves the flag off: the answer is all content", async () => {
    const r = await chat({ think: false });
    const message = (r.body as Json).message as Json;
    assert.equal(message.thinking, undefined);
    assert.match(String(message.content), /^ little girl/);
  });

  it("streams the reasoning in message.thinking chunks", async () => {
    const res = await post(`${url}/api/chat`, {
      model: "thinker",
      messages: [{ role: "user", content: PROMPT }],
      options: OPTS,
    });
    const lines = await ndjsonLines(res);
    const thinking = lines.map((l) => (l.message as Json).thinking ?? "").join("");
    const content = lines.map((l) => (l.message as Json).content).join("");
    assert.deepEqual([thinking, content], [reasoning, ""]);
  });

  it("passes earlier reasoning to the template as .Thinking", async () => {
    const withPast = await chat({
      think: false,
      messages: [
        { role: "user", content: "Hi" },
        { role: "assistant", content: "Hello", thinking: "a long thought about greetings" },
        { role: "user", content: PROMPT },
      ],
    });
    const without = await chat({
      think: false,
      messages: [
        { role: "user", content: "Hi" },
        { role: "assistant", content: "Hello" },
        { role: "user", content: PROMPT },
      ],
    });
    assert.ok(
      Number((withPast.body as Json).prompt_eval_count) >
        Number((without.body as Json).prompt_eval_count) + 5,
    );
  });

  it("generate returns the reasoning in thinking", async () => {
    const r = await postJson(`${url}/api/generate`, {
      model: "thinker",
      prompt: PROMPT,
      stream: false,
      options: OPTS,
    });
    const body = r.body as Json;
    assert.deepEqual([body.thinking, body.response], [reasoning, ""]);
  });

  it("the OpenAI layer maps reasoning_effort and returns reasoning", async () => {
    const base = {
      model: "thinker",
      messages: [{ role: "user", content: PROMPT }],
      temperature: 0,
      max_tokens: 10,
    };
    const once = await postJson(`${url}/v1/chat/completions`, { ...base, reasoning_effort: "low" });
    const message = ((once.body as Json).choices as Json[])[0]?.message as Json;
    assert.deepEqual([message.reasoning, message.content], [reasoning, ""]);
    const off = await postJson(`${url}/v1/chat/completions`, { ...base, reasoning_effort: "none" });
    const plain = ((off.body as Json).choices as Json[])[0]?.message as Json;
    assert.match(String(plain.content), /^ little girl/);
    const streamed = await post(`${url}/v1/chat/completions`, { ...base, stream: true });
    const deltas = (await sseEvents(streamed)).map((e) => (e.choices as Json[])[0]?.delta as Json);
    assert.equal(deltas.map((d) => d?.reasoning ?? "").join(""), reasoning);
    const bad = await postJson(`${url}/v1/chat/completions`, { ...base, reasoning_effort: "huge" });
    assert.equal(bad.status, 400);
  });

  it("a model without thinking answers Ollama's 400 for think, natively and in OpenAI", async () => {
    const r = await postJson(`${url}/api/chat`, {
      model: "plain",
      messages: [{ role: "user", content: "x" }],
      think: true,
    });
    assert.deepEqual([r.status, r.body], [400, { error: '"plain" does not support thinking' }]);
    const g = await postJson(`${url}/api/generate`, { model: "plain", prompt: "x", think: "high" });
    assert.deepEqual([g.status, g.body], [400, { error: '"plain" does not support thinking' }]);
    const o = await postJson(`${url}/v1/chat/completions`, {
      model: "plain",
      messages: [{ role: "user", content: "x" }],
      reasoning_effort: "high",
    });
    assert.equal(o.status, 400);
    assert.equal(((o.body as Json).error as Json).message, '"plain" does not support thinking');
  });
});
