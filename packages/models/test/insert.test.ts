import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { baseModel, encodeCrafted, gguf, withMeta } from "./crafted-gguf.js";
import { postJson, startTestServer, storiesSkip, type TestServer } from "./harness.js";
import { createStories } from "./stories-model.js";

type Json = Record<string, unknown>;

async function createFromBytes(url: string, model: string, bytes: Buffer): Promise<void> {
  const digest = `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
  const up = await fetch(`${url}/api/blobs/${digest}`, { method: "POST", body: bytes });
  assert.ok(up.status === 201 || up.status === 200);
  const r = await postJson(`${url}/api/create`, {
    model,
    files: { "m.gguf": digest },
    stream: false,
  });
  assert.equal(r.status, 200, r.text);
}

/** A GGUF written by the project's writer, naming three of its tokens as fill-in-the-middle. */
function fimModel(): Buffer {
  let g = baseModel();
  g = withMeta(g, "tokenizer.ggml.fim_pre_token_id", gguf.u32(3));
  g = withMeta(g, "tokenizer.ggml.fim_suf_token_id", gguf.u32(4));
  g = withMeta(g, "tokenizer.ggml.fim_mid_token_id", gguf.u32(5));
  return encodeCrafted(g).bytes;
}

describe("suffix (fill in the middle) with fill-in-the-middle tokens", { timeout: 120_000 }, () => {
  let server: TestServer;
  let url: string;
  before(async () => {
    server = await startTestServer({}, { ensureDemo: false });
    url = server.url;
    await createFromBytes(url, "fim", fimModel());
    await createFromBytes(url, "plain", encodeCrafted(baseModel()).bytes);
  });
  after(() => server.stop());

  const gen = (model: string, body: Json) =>
    postJson(`${url}/api/generate`, {
      model,
      stream: false,
      options: { num_predict: 1, temperature: 0 },
      ...body,
    });

  it("frames prompt and suffix with the prefix, suffix and middle tokens", async () => {
    const prompt = (await gen("fim", { prompt: "def f(", raw: true })).body as Json;
    const suffix = (await gen("fim", { prompt: "):\n  return 1", raw: true })).body as Json;
    const r = await gen("fim", { prompt: "def f(", suffix: "):\n  return 1" });
    assert.equal(r.status, 200, r.text);
    // BOS + <pre> + prompt + <suf> + suffix + <mid>; each raw count holds its own BOS.
    const expected = Number(prompt.prompt_eval_count) + Number(suffix.prompt_eval_count) + 2;
    assert.equal((r.body as Json).prompt_eval_count, expected);
    const v1 = await postJson(`${url}/v1/completions`, {
      model: "fim",
      prompt: "def f(",
      suffix: "):\n  return 1",
      max_tokens: 1,
    });
    assert.equal(v1.status, 200, v1.text);
    assert.equal(((v1.body as Json).usage as Json).prompt_tokens, expected);
  });

  it("answers Ollama's 400 for a model with neither tokens nor a .Suffix template", async () => {
    const r = await gen("plain", { prompt: "a", suffix: "b" });
    assert.deepEqual([r.status, r.body], [400, { error: "plain:latest does not support insert" }]);
    const v1 = await postJson(`${url}/v1/completions`, {
      model: "plain",
      prompt: "a",
      suffix: "b",
    });
    assert.equal(v1.status, 400);
    assert.equal(((v1.body as Json).error as Json).message, "plain:latest does not support insert");
  });
});

describe("suffix through a template that uses .Suffix (stories260K)", {
  skip: storiesSkip(),
  timeout: 120_000,
}, () => {
  let server: TestServer;
  let url: string;
  before(async () => {
    server = await startTestServer({}, { ensureDemo: false });
    url = server.url;
    await createStories(url, "story-fim", { template: "{{ .Prompt }}{{ .Suffix }}" });
  });
  after(() => server.stop());

  it("renders the suffix where the template places it", async () => {
    const r = await postJson(`${url}/api/generate`, {
      model: "story-fim",
      prompt: "Once upon a time,",
      suffix: " there was a",
      stream: false,
      options: { num_predict: 4, temperature: 0 },
    });
    assert.equal(r.status, 200, r.text);
    // The model read "Once upon a time, there was a" and continues it.
    assert.match(String((r.body as Json).response), /^ little/);
  });
});
