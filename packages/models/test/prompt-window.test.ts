import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { postJson, startTestServer, storiesSkip, type TestServer } from "./harness.js";
import { createStories } from "./stories-model.js";

type Json = Record<string, unknown>;
const LONG = `${"Lily liked to play with her ball in the park. ".repeat(30)}Once upon a time, there was a`;
const CTX = { num_ctx: 64, num_predict: 8, temperature: 0 };

describe("prompts longer than the context (stories260K)", {
  skip: storiesSkip(),
  timeout: 300_000,
}, () => {
  let server: TestServer;
  let url: string;

  before(async () => {
    server = await startTestServer({}, { ensureDemo: false });
    url = server.url;
    await createStories(url, "stories");
    await createStories(url, "listing", {
      template: "{{ range .Messages }}{{ .Content }}\n{{ end }}",
    });
  });
  after(() => server.stop());

  it("generate keeps num_keep tokens and the end of a long prompt, and answers", async () => {
    const r = await postJson(`${url}/api/generate`, {
      model: "stories",
      prompt: LONG,
      raw: true,
      stream: false,
      options: CTX,
    });
    assert.equal(r.status, 200, r.text);
    const body = r.body as Json;
    // 64 places: the prompt keeps 64 - 8 (num_predict) of them, the beginning token included.
    assert.equal(body.prompt_eval_count, 56);
    assert.equal(body.eval_count, 8);
    // The end of the prompt was kept: the model continues "there was a".
    assert.match(String(body.response), /^ little/);
  });

  it("generate with truncate false answers Ollama's 400", async () => {
    const r = await postJson(`${url}/api/generate`, {
      model: "stories",
      prompt: LONG,
      raw: true,
      stream: false,
      truncate: false,
      options: CTX,
    });
    assert.deepEqual(
      [r.status, r.body],
      [400, { error: "the input length exceeds the context length" }],
    );
  });

  it("chat keeps the system message and the latest messages that fit", async () => {
    // Short messages (a few tokens each), so the kept ones fill the window closely.
    const history = Array.from({ length: 40 }, (_, i) => ({
      role: i % 2 === 0 ? "user" : "assistant",
      content: `Tom ran ${i}.`,
    }));
    const last = { role: "user", content: "Once upon a time, there was a" };
    const ask = async (messages: Json[]) => {
      const r = await postJson(`${url}/api/chat`, {
        model: "listing",
        messages,
        stream: false,
        options: { ...CTX, num_ctx: 96 },
      });
      assert.equal(r.status, 200, r.text);
      return r.body as Json;
    };
    const withSystem = await ask([{ role: "system", content: "Be kind." }, ...history, last]);
    const without = await ask([...history, last]);
    for (const b of [withSystem, without]) {
      // Room is left for the answer (no context shift): all num_predict tokens come.
      assert.ok(Number(b.prompt_eval_count) <= 96 - 8, `fits: ${b.prompt_eval_count}`);
      assert.equal(b.eval_count, 8);
      assert.ok(Number(b.prompt_eval_count) > 40, `latest messages kept: ${b.prompt_eval_count}`);
      assert.ok(String((b.message as Json).content).length > 0);
    }
    // The system message (a few tokens) is kept in place of some history.
    assert.notEqual(withSystem.prompt_eval_count, without.prompt_eval_count);
  });

  it("embed truncates by default and answers Ollama's 400 with truncate false", async () => {
    const ok = await postJson(`${url}/api/embed`, {
      model: "stories",
      input: LONG,
      options: { num_ctx: 64 },
    });
    assert.equal(ok.status, 200, ok.text);
    assert.ok(Number((ok.body as Json).prompt_eval_count) <= 64);
    const refused = await postJson(`${url}/api/embed`, {
      model: "stories",
      input: LONG,
      truncate: false,
      options: { num_ctx: 64 },
    });
    assert.deepEqual(
      [refused.status, refused.body],
      [400, { error: "the input length exceeds the context length" }],
    );
  });
});
