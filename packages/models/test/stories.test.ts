import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, describe, it } from "node:test";
import { Ollama } from "ollama";
import OpenAI from "openai";
import { readGgufInfo } from "../src/gguf/gguf-reader.js";
import { shapeFromGguf } from "../src/gguf/model-shape.js";
import { estimateMemory } from "../src/runtime/memory-estimate.js";
import { digestOfFile } from "../src/store/blob-store.js";
import {
  postJson,
  STORIES_PATH,
  startTestServer,
  storiesSkip,
  type TestServer,
} from "./harness.js";

const COMMON = [
  "the",
  "a",
  "was",
  "and",
  "to",
  "she",
  "he",
  "they",
  "her",
  "his",
  "day",
  "time",
  "little",
  "there",
  "big",
  "play",
];

describe("a real model (stories260K) end to end", { skip: storiesSkip(), timeout: 300_000 }, () => {
  let server: TestServer;
  let ollama: Ollama;

  before(async () => {
    server = await startTestServer({}, { ensureDemo: false });
    ollama = new Ollama({ host: server.url });
    const digest = await digestOfFile(STORIES_PATH);
    const up = await fetch(`${server.url}/api/blobs/${digest}`, {
      method: "POST",
      body: await readFile(STORIES_PATH),
    });
    assert.equal(up.status, 201);
    const created = await postJson(`${server.url}/api/create`, {
      model: "stories",
      files: { "stories260K.gguf": digest },
      stream: false,
    });
    assert.equal(created.status, 200, created.text);
  });
  after(() => server.stop());

  it("describes the model from its GGUF metadata", async () => {
    const show = (await postJson(`${server.url}/api/show`, { model: "stories" })).body as {
      information: Record<string, unknown>;
      model_info: Record<string, unknown>;
    };
    assert.equal(show.information.architecture, "llama");
    assert.equal(show.information.embedding_length, 64);
    assert.equal(show.information.context_length, 2048);
    assert.equal(show.model_info["llama.block_count"], 5);
    assert.deepEqual(show.information.capabilities, ["completion"]);
  });

  it("shows Ollama's default template and leaves the tokenizer arrays out unless verbose", async () => {
    const plain = (await postJson(`${server.url}/api/show`, { model: "stories" })).body as {
      template: string;
      model_info: Record<string, unknown>;
    };
    assert.equal(plain.template, "{{ .Prompt }}", "a model without a TEMPLATE");
    for (const key of ["tokens", "scores", "token_type"])
      assert.equal(plain.model_info[`tokenizer.ggml.${key}`], null, key);
    const verbose = (await postJson(`${server.url}/api/show`, { model: "stories", verbose: true }))
      .body as { model_info: Record<string, unknown> };
    const tokens = verbose.model_info["tokenizer.ggml.tokens"] as string[];
    const scores = verbose.model_info["tokenizer.ggml.scores"] as number[];
    const types = verbose.model_info["tokenizer.ggml.token_type"] as number[];
    assert.equal(tokens.length, 512, "stories260K's vocabulary");
    assert.ok(tokens.every((t) => typeof t === "string"));
    assert.ok(tokens.includes("<s>"));
    assert.deepEqual([scores.length, types.length], [512, 512]);
    assert.ok(scores.every((x) => typeof x === "number") && types.every(Number.isInteger));
    assert.equal(verbose.model_info["llama.block_count"], 5);
    const bad = await postJson(`${server.url}/api/show`, { model: "stories", verbose: "yes" });
    assert.equal(bad.status, 400);
    assert.match(bad.text, /verbose/);
  });

  it("reports in /api/ps the memory the loaded model takes: weights, KV cache, compute", async () => {
    await ollama.generate({
      model: "stories",
      prompt: "Once",
      stream: false,
      options: { num_ctx: 256, num_predict: 1 },
    });
    const res = await fetch(`${server.url}/api/ps`);
    const ps = (await res.json()) as { models: Array<Record<string, unknown>> };
    const m = ps.models.find((e) => e.name === "stories:latest");
    assert.ok(m, JSON.stringify(ps));
    const info = readGgufInfo(STORIES_PATH);
    const need = estimateMemory(shapeFromGguf(info), info.fileSize, {
      contextSize: 256,
      sequences: 1,
      kvCacheType: "f16",
      flashAttention: false,
    });
    const size = m.size as number;
    // The tensors take the file less its header; the KV cache and compute buffers come on top.
    assert.ok(size > need.kvCache + need.compute + info.fileSize - info.dataOffset - 1, `${size}`);
    assert.ok(size <= need.total, `${size} <= ${need.total}`);
    assert.equal(m.size_vram, 0);
    assert.equal(m.context_length, 256);
  });

  it("writes coherent English for a story opening", async () => {
    const r = await ollama.generate({
      model: "stories",
      prompt: "Once upon a time",
      stream: false,
      options: { temperature: 0, num_predict: 60 },
    });
    const words = (r.response ?? "").toLowerCase().match(/[a-z]+/g) ?? [];
    assert.ok(words.length >= 25, `enough words: ${r.response}`);
    const common = words.filter((w) => COMMON.includes(w)).length;
    assert.ok(common >= 8, `common English words in: ${r.response}`);
    assert.match(r.response ?? "", /^[\w\s.,!?'"-]+$/);
  });

  it("streams chunks that add up to the non-streamed text", async () => {
    const opts = { temperature: 0, num_predict: 30 };
    const whole = await ollama.generate({
      model: "stories",
      prompt: "The dog",
      stream: false,
      options: opts,
    });
    let text = "";
    let chunks = 0;
    for await (const c of await ollama.generate({
      model: "stories",
      prompt: "The dog",
      stream: true,
      options: opts,
    })) {
      text += c.response ?? "";
      chunks++;
    }
    assert.ok(chunks > 10);
    assert.equal(text, whole.response);
  });

  it("reports length at num_predict and stop at a stop sequence, leaving the stop text out", async () => {
    const long = await ollama.generate({
      model: "stories",
      prompt: "Once upon a time",
      stream: false,
      options: { temperature: 0, num_predict: 10 },
    });
    assert.deepEqual([long.done_reason, long.eval_count], ["length", 10]);
    const stopped = await ollama.generate({
      model: "stories",
      prompt: "Once upon a time",
      stream: false,
      options: { temperature: 0, num_predict: 200, stop: ["."] },
    });
    assert.equal(stopped.done_reason, "stop");
    assert.ok(!(stopped.response ?? "").includes("."));
    assert.ok((stopped.response ?? "").length > 5);
  });

  it("repeats text exactly for the same seed and differs for another seed", async () => {
    const run = (seed: number) =>
      ollama.generate({
        model: "stories",
        prompt: "Lily",
        stream: false,
        options: { temperature: 1, top_k: 0, top_p: 1, seed, num_predict: 40 },
      });
    const a = await run(42);
    const b = await run(42);
    const c = await run(43);
    assert.equal(a.response, b.response);
    assert.notEqual(a.response, c.response);
  });

  it("gives 64-dimension embeddings natively and through the OpenAI client", async () => {
    const e = await ollama.embed({ model: "stories", input: ["a cat", "a dog"] });
    assert.deepEqual(
      e.embeddings.map((v) => v.length),
      [64, 64],
    );
    const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "x" });
    const o = await openai.embeddings.create({ model: "stories", input: "a cat" });
    assert.equal(o.data[0]?.embedding.length, 64);
    const first = e.embeddings[0] ?? [];
    assert.ok((o.data[0]?.embedding ?? []).every((x, i) => Math.abs(x - (first[i] ?? 0)) < 1e-5));
  });

  it("renders a Modelfile TEMPLATE with messages and tools, which adds the tools capability", async () => {
    const template =
      "{{- range .Messages }}[{{ .Role }}] {{ .Content }}\n{{ end }}{{ with .Tools }}tools: {{ json . }}\n{{ end }}[assistant]";
    const created = await postJson(`${server.url}/api/create`, {
      model: "stories-tools",
      from: "stories",
      template,
      stream: false,
    });
    assert.equal(created.status, 200, created.text);
    const show = await ollama.show({ model: "stories-tools" });
    assert.deepEqual(show.capabilities, ["completion", "tools"]);
    const messages = [{ role: "user", content: "Hello" }];
    const opts = { temperature: 0, num_predict: 5 };
    const plain = await ollama.chat({
      model: "stories-tools",
      messages,
      stream: false,
      options: opts,
    });
    const tools = [
      {
        type: "function",
        function: {
          name: "find_cat",
          description: "finds a cat",
          parameters: { type: "object", properties: {} },
        },
      },
    ];
    const withTools = await ollama.chat({
      model: "stories-tools",
      messages,
      tools,
      stream: false,
      options: opts,
    });
    assert.ok(
      withTools.prompt_eval_count > plain.prompt_eval_count + 10,
      "the tool list was rendered into the prompt",
    );
  });

  it("chats through the plain transcript when the model has no chat template", async () => {
    const r = await ollama.chat({
      model: "stories",
      messages: [{ role: "user", content: "Tell a story" }],
      stream: false,
      options: { temperature: 0, num_predict: 20 },
    });
    assert.equal(r.eval_count, 20);
    assert.ok(r.message.content.length > 0);
    const tools = await postJson(`${server.url}/api/chat`, {
      model: "stories",
      messages: [{ role: "user", content: "x" }],
      tools: [{ type: "function", function: { name: "f" } }],
    });
    assert.deepEqual(
      [tools.status, tools.body],
      [400, { error: "stories:latest does not support tools" }],
    );
  });
});
