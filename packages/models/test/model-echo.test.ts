import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createTinyModel, postJson, startTestServer, type TestServer } from "./harness.js";
import { ndjsonLines, post, sseEvents } from "./stories-model.js";

type Json = Record<string, unknown>;
const OPTS = { num_predict: 2, temperature: 0 };

/** Every answer names the model as the client sent it (Ollama echoes the request's name). */
describe("the model field echoes the name the client sent", { timeout: 120_000 }, () => {
  let server: TestServer;
  let url: string;

  before(async () => {
    server = await startTestServer({}, { ensureDemo: false });
    url = server.url;
    await createTinyModel(url, "tiny", 7);
  });
  after(() => server.stop());

  for (const asked of ["tiny", "tiny:latest"]) {
    it(`native routes answer with "${asked}"`, async () => {
      const seen: unknown[] = [];
      for (const stream of [false, true]) {
        const gen = await post(`${url}/api/generate`, {
          model: asked,
          prompt: "Hi",
          stream,
          options: OPTS,
        });
        for (const l of await ndjsonLines(gen)) seen.push(l.model);
        const chat = await post(`${url}/api/chat`, {
          model: asked,
          messages: [{ role: "user", content: "Hi" }],
          stream,
          options: OPTS,
        });
        for (const l of await ndjsonLines(chat)) seen.push(l.model);
      }
      seen.push((await postJson(`${url}/api/generate`, { model: asked })).body);
      seen.push((await postJson(`${url}/api/chat`, { model: asked, messages: [] })).body);
      seen.push((await postJson(`${url}/api/embed`, { model: asked, input: "a" })).body);
      seen.push((await postJson(`${url}/api/embed`, { model: asked })).body);
      const models = seen.map((s) => (typeof s === "object" && s !== null ? (s as Json).model : s));
      assert.ok(models.length > 8);
      assert.deepEqual(new Set(models), new Set([asked]));
    });

    it(`OpenAI routes answer with "${asked}"`, async () => {
      const seen: unknown[] = [];
      for (const stream of [false, true]) {
        const base = { model: asked, stream, max_tokens: 2, temperature: 0 };
        const chat = await post(`${url}/v1/chat/completions`, {
          ...base,
          messages: [{ role: "user", content: "Hi" }],
        });
        const cmpl = await post(`${url}/v1/completions`, { ...base, prompt: "Hi" });
        for (const r of [chat, cmpl]) {
          if (stream) for (const e of await sseEvents(r)) seen.push(e.model);
          else seen.push(((await r.json()) as Json).model);
        }
      }
      const emb = await postJson(`${url}/v1/embeddings`, { model: asked, input: "a" });
      seen.push((emb.body as Json).model);
      assert.deepEqual(new Set(seen), new Set([asked]));
    });
  }

  it("names the model as sent in the thinking error", async () => {
    const r = await postJson(`${url}/api/chat`, {
      model: "tiny",
      messages: [{ role: "user", content: "Hi" }],
      think: true,
    });
    assert.equal(r.status, 400);
    assert.deepEqual(r.body, { error: '"tiny" does not support thinking' });
  });
});
