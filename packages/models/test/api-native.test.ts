import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Ollama } from "ollama";
import { postJson, startTestServer, type TestServer } from "./harness.js";

/** Asserts that a client call fails with the given HTTP status and a message matching `re`. */
async function rejectsWith(p: Promise<unknown>, status: number, re: RegExp): Promise<void> {
  await assert.rejects(p, (e: { status_code?: number; error?: string }) => {
    assert.equal(e.status_code, status);
    assert.match(e.error ?? "", re);
    return true;
  });
}

describe("native Ollama API with the official ollama client", { timeout: 300_000 }, () => {
  let server: TestServer;
  let ollama: Ollama;
  const fast = { num_predict: 12, seed: 7 };

  before(async () => {
    server = await startTestServer();
    ollama = new Ollama({ host: server.url });
  });
  after(() => server.stop());

  it("answers GET / and HEAD / and /api/version", async () => {
    assert.equal(await (await fetch(`${server.url}/`)).text(), "Ollama is running");
    assert.equal((await fetch(`${server.url}/`, { method: "HEAD" })).status, 200);
    const v = await ollama.version();
    assert.match(v.version, /^\d+\.\d+\.\d+$/);
  });

  it("lists demo:latest with the spec's model entry fields from the store", async () => {
    const { models } = await ollama.list();
    const demo = models.find((m) => m.name === "demo:latest");
    assert.ok(demo, "demo:latest listed");
    assert.equal(demo.model, "demo:latest");
    assert.match(demo.digest, /^[0-9a-f]{64}$/);
    assert.ok(demo.size > 20_000_000);
    assert.ok(!Number.isNaN(new Date(demo.modified_at).getTime()));
    assert.deepEqual(Object.keys(demo.details).sort(), [
      "families",
      "family",
      "format",
      "parameter_size",
      "parent_model",
      "quantization_level",
    ]);
    assert.equal(demo.details.format, "gguf");
    assert.equal(demo.details.family, "llama");
    assert.equal(demo.details.quantization_level, "Q8_0");
  });

  it("shows architecture, lengths, quantization, capabilities, defaults, license and template", async () => {
    const res = await postJson(`${server.url}/api/show`, { model: "demo" });
    assert.equal(res.status, 200);
    const body = res.body as Record<string, Record<string, unknown> & string>;
    const info = body.information as Record<string, unknown>;
    assert.equal(info.architecture, "llama");
    assert.equal(info.embedding_length, 2048);
    assert.equal(info.context_length, 2048);
    assert.equal(info.quantization, "Q8_0");
    assert.deepEqual(info.capabilities, ["completion", "tools"]);
    assert.deepEqual(info.default_parameters, { temperature: 0.8, top_k: 40, top_p: 0.9 });
    assert.match(String(info.license), /noise/);
    assert.match(String(body.template), /im_start/);
    assert.match(String(body.modelfile), /^# Modelfile generated/);
    assert.equal((body.model_info as Record<string, unknown>)["llama.embedding_length"], 2048);
    const viaClient = await ollama.show({ model: "demo:latest" });
    assert.deepEqual(viaClient.capabilities, ["completion", "tools"]);
  });

  it("generates without streaming with every field of the spec, durations in nanoseconds", async () => {
    const r = await ollama.generate({
      model: "demo",
      prompt: "Hello",
      stream: false,
      options: fast,
    });
    assert.equal(r.model, "demo"); // the name as sent
    assert.equal(r.done, true);
    assert.equal(r.done_reason, "length");
    assert.equal(r.eval_count, 12);
    assert.ok((r.response ?? "").length > 0);
    assert.ok(
      Array.isArray(r.context) && r.context.length === r.prompt_eval_count - 1 + r.eval_count,
      "context = prompt (without BOS) + output",
    );
    for (const f of [
      "total_duration",
      "load_duration",
      "prompt_eval_duration",
      "eval_duration",
    ] as const) {
      assert.ok(Number.isInteger(r[f]) && r[f] >= 0, `${f} is a non-negative integer`);
    }
    assert.ok(r.total_duration >= r.eval_duration);
    assert.ok(!Number.isNaN(new Date(r.created_at).getTime()));
  });

  it("streams NDJSON chunks whose text equals the non-streamed text for the same seed", async () => {
    const whole = await ollama.generate({
      model: "demo",
      prompt: "Stream me",
      stream: false,
      options: fast,
    });
    const parts: string[] = [];
    let last:
      | { done: boolean; done_reason?: string; eval_count?: number; response?: string }
      | undefined;
    for await (const chunk of await ollama.generate({
      model: "demo",
      prompt: "Stream me",
      stream: true,
      options: fast,
    })) {
      if (!chunk.done) parts.push(chunk.response ?? "");
      last = chunk;
    }
    assert.ok(parts.length > 1, "several chunks");
    assert.equal(parts.join(""), whole.response);
    assert.equal(last?.done, true);
    assert.equal(last?.response, "");
    assert.equal(last?.eval_count, 12);
  });

  it("gives the same text for the same seed and options, and another text for another seed", async () => {
    const opts = { num_predict: 16, temperature: 1, seed: 1234 };
    const a = await ollama.generate({
      model: "demo",
      prompt: "seed test",
      stream: false,
      options: opts,
    });
    const b = await ollama.generate({
      model: "demo",
      prompt: "seed test",
      stream: false,
      options: opts,
    });
    const c = await ollama.generate({
      model: "demo",
      prompt: "seed test",
      stream: false,
      options: { ...opts, seed: 99 },
    });
    assert.equal(a.response, b.response);
    assert.notEqual(a.response, c.response);
  });

  it("stops at a stop sequence with done_reason stop and leaves the stop text out", async () => {
    const probe = await ollama.generate({
      model: "demo",
      prompt: "x",
      raw: true,
      stream: false,
      options: { num_predict: 30, seed: 3 },
    });
    const text = probe.response ?? "";
    const stopAt = text.slice(5, 7);
    const r = await ollama.generate({
      model: "demo",
      prompt: "x",
      raw: true,
      stream: false,
      options: { num_predict: 30, seed: 3, stop: [stopAt] },
    });
    assert.equal(r.done_reason, "stop");
    assert.equal(r.response, text.slice(0, text.indexOf(stopAt)));
  });

  it("continues from a previous context and omits context in raw mode", async () => {
    const first = await ollama.generate({
      model: "demo",
      prompt: "one",
      stream: false,
      options: { num_predict: 4, seed: 1 },
    });
    const second = await ollama.generate({
      model: "demo",
      prompt: "two",
      context: first.context,
      stream: false,
      options: { num_predict: 4, seed: 1 },
    });
    assert.ok(second.prompt_eval_count > first.context.length);
    const raw = await ollama.generate({
      model: "demo",
      prompt: "raw",
      raw: true,
      stream: false,
      options: { num_predict: 2 },
    });
    assert.equal(raw.context, undefined);
  });

  it("constrains output to a JSON schema with format", async () => {
    const schema = {
      type: "object",
      properties: {
        n: { type: "integer" },
        ok: { type: "boolean" },
        tag: { type: "string", maxLength: 6 },
      },
      required: ["n", "ok", "tag"],
    };
    const r = await ollama.generate({
      model: "demo",
      prompt: "json please",
      format: schema,
      stream: false,
      options: { num_predict: 300, seed: 5 },
    });
    assert.equal(r.done_reason, "stop");
    const parsed = JSON.parse(r.response ?? "") as { n: unknown; ok: unknown; tag: unknown };
    // node-llama-cpp's integer rule allows an exponent, which can overflow to Infinity.
    assert.equal(typeof parsed.n, "number");
    assert.match(r.response ?? "", /"n"\s*:\s*-?\d+([eE][-+]?\d+)?\s*[,}]/, "n has no fraction");
    assert.equal(typeof parsed.ok, "boolean");
    assert.ok(typeof parsed.tag === "string" && parsed.tag.length <= 6);
  });

  it("loads on an empty prompt (done_reason load) and unloads with keep_alive 0 (unload)", async () => {
    const load = await postJson(`${server.url}/api/generate`, { model: "demo" });
    assert.equal(load.status, 200);
    assert.equal((load.body as { done_reason: string }).done_reason, "load");
    assert.equal((await ollama.ps()).models.length, 1);
    const unload = await postJson(`${server.url}/api/generate`, { model: "demo", keep_alive: 0 });
    assert.equal((unload.body as { done_reason: string }).done_reason, "unload");
    assert.equal((await ollama.ps()).models.length, 0);
  });

  it("chats without streaming and with streaming through the model's chat template", async () => {
    const messages = [{ role: "user", content: "Hi there" }];
    const r = await ollama.chat({ model: "demo", messages, stream: false, options: fast });
    assert.equal(r.message.role, "assistant");
    assert.ok(r.message.content.length > 0);
    assert.equal(r.done_reason, "length");
    assert.ok(r.prompt_eval_count > 20, "the chat template wrapped the message");
    let text = "";
    let final: { done: boolean; eval_count?: number } | undefined;
    for await (const c of await ollama.chat({
      model: "demo",
      messages,
      stream: true,
      options: fast,
    })) {
      text += c.message.content;
      final = c;
    }
    assert.equal(text, r.message.content);
    assert.equal(final?.done, true);
    assert.equal(final?.eval_count, 12);
  });

  it("constrains output to JSON with format json: finished answers parse, cut ones are JSON prefixes", async () => {
    let finished = 0;
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const r = await ollama.generate({
        model: "demo",
        prompt: "json",
        format: "json",
        stream: false,
        options: { num_predict: 120, seed },
      });
      const text = r.response ?? "";
      assert.match(text, /^\s*[{[]/, `seed ${seed} starts a JSON value`);
      if (r.done_reason === "stop") {
        finished++;
        assert.doesNotThrow(() => JSON.parse(text), `seed ${seed}: ${text}`);
      }
    }
    assert.ok(finished > 0, "the grammar let at least one answer close");
  });

  it("chats with a JSON schema format and returns parseable structured output", async () => {
    const schema = {
      type: "object",
      properties: { city: { type: "string", maxLength: 10 } },
      required: ["city"],
    };
    const r = await ollama.chat({
      model: "demo",
      messages: [{ role: "user", content: "city?" }],
      format: schema,
      stream: false,
      options: { num_predict: 120, seed: 9 },
    });
    const parsed = JSON.parse(r.message.content) as { city: unknown };
    assert.equal(typeof parsed.city, "string");
  });

  it("accepts tools on a tools-capable model and returns tool_calls when the answer is a call", async () => {
    const tools = [
      {
        type: "function",
        function: {
          name: "get_weather",
          description: "weather",
          parameters: { type: "object", properties: { city: { type: "string" } } },
        },
      },
    ];
    const schema = {
      type: "object",
      properties: {
        name: { const: "get_weather" },
        arguments: {
          type: "object",
          properties: { city: { type: "string", maxLength: 10 } },
          required: ["city"],
        },
      },
      required: ["name", "arguments"],
    };
    const r = await ollama.chat({
      model: "demo",
      messages: [{ role: "user", content: "weather?" }],
      tools,
      format: schema,
      stream: false,
      options: { num_predict: 150, seed: 4 },
    });
    assert.equal(r.message.tool_calls?.length, 1);
    assert.equal(r.message.tool_calls?.[0]?.function.name, "get_weather");
    assert.equal(typeof r.message.tool_calls?.[0]?.function.arguments.city, "string");
  });

  it("rejects images for a model without a projector with Ollama's 400 naming the model", async () => {
    await rejectsWith(
      ollama.chat({
        model: "demo",
        messages: [{ role: "user", content: "see", images: ["aGVsbG8="] }],
        stream: false,
      }),
      400,
      /^demo:latest does not support vision$/,
    );
    const g = await postJson(`${server.url}/api/generate`, {
      model: "demo",
      prompt: "x",
      images: ["aGVsbG8="],
    });
    assert.equal(g.status, 400);
    assert.match(
      String((g.body as { error: string }).error),
      /demo:latest does not support vision$/,
    );
  });

  it("embeds with /api/embed: normalised vectors of length 2048, one per input, dimensions truncate", async () => {
    const r = await ollama.embed({ model: "demo", input: ["alpha", "beta"] });
    assert.equal(r.embeddings.length, 2);
    for (const v of r.embeddings) {
      assert.equal(v.length, 2048);
      assert.ok(Math.abs(Math.hypot(...v) - 1) < 1e-4);
    }
    const d = await postJson(`${server.url}/api/embed`, {
      model: "demo",
      input: "alpha",
      dimensions: 8,
    });
    const dv = (d.body as { embeddings: number[][] }).embeddings[0] ?? [];
    assert.equal(dv.length, 8);
    assert.ok(Math.abs(Math.hypot(...dv) - 1) < 1e-4);
    assert.ok((d.body as { prompt_eval_count: number }).prompt_eval_count > 0);
  });

  it("embeds with legacy /api/embeddings: one raw vector", async () => {
    const r = await ollama.embeddings({ model: "demo", prompt: "alpha" });
    assert.equal(r.embedding.length, 2048);
    const norm = Math.hypot(...r.embedding);
    assert.ok(Math.abs(norm - 1) > 1e-3, "legacy embeddings are not normalised");
  });

  it("lists loaded models in /api/ps with size, expiry, context and queue counts", async () => {
    await ollama.generate({
      model: "demo",
      prompt: "load",
      stream: false,
      options: { num_predict: 1 },
      keep_alive: "10m",
    });
    const res = await postJson(`${server.url}/api/ps`, undefined, {
      method: "GET",
      raw: undefined,
    });
    const m = (res.body as { models: Array<Record<string, unknown>> }).models[0] ?? {};
    assert.equal(m.name, "demo:latest");
    assert.ok((m.size as number) > 20_000_000);
    const left = new Date(String(m.expires_at)).getTime() - Date.now();
    assert.ok(
      left > 9 * 60_000 && left <= 10 * 60_000,
      `expires in about 10 minutes, got ${left} ms`,
    );
    assert.equal(m.context_length, 512);
    assert.equal(m.active, 0);
    assert.equal(m.queued, 0);
  });

  it("answers 404 for an unknown model on every model endpoint", async () => {
    await rejectsWith(
      ollama.generate({ model: "nope", prompt: "x", stream: false }),
      404,
      /model 'nope' not found/,
    );
    await rejectsWith(
      ollama.chat({ model: "nope:v2", messages: [{ role: "user", content: "x" }], stream: false }),
      404,
      /model 'nope:v2' not found/,
    );
    await rejectsWith(ollama.embed({ model: "nope", input: "x" }), 404, /not found/);
    await rejectsWith(ollama.show({ model: "nope" }), 404, /not found/);
    await rejectsWith(ollama.delete({ model: "nope" }), 404, /not found/);
  });

  it("answers 400 for malformed JSON, a missing body, a missing model and bad field types", async () => {
    const bad = await postJson(`${server.url}/api/generate`, undefined, { raw: "{not json" });
    assert.equal(bad.status, 400);
    assert.match((bad.body as { error: string }).error, /invalid JSON/);
    const empty = await postJson(`${server.url}/api/chat`, undefined, { raw: "" });
    assert.deepEqual(empty.body, { error: "missing request body" });
    const noModel = await postJson(`${server.url}/api/generate`, { prompt: "x" });
    assert.deepEqual([noModel.status, noModel.body], [400, { error: "model is required" }]);
    const badName = await postJson(`${server.url}/api/generate`, {
      model: "bad name!",
      prompt: "x",
    });
    assert.equal(badName.status, 400);
    const badStream = await postJson(`${server.url}/api/generate`, {
      model: "demo",
      prompt: "x",
      stream: "yes",
    });
    assert.deepEqual(
      [badStream.status, badStream.body],
      [400, { error: 'field "stream" must be a boolean' }],
    );
  });

  it("answers 400 for invalid options naming the option, without loading anything", async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ temperature: "hot" }, /option "temperature" must be of type float32/],
      [{ top_p: 2 }, /option "top_p" must be between 0 and 1/],
      [{ num_thread: 64 }, /option "num_thread" must not exceed the physical core count/],
      [{ stop: [1] }, /option "stop" must be of type array of strings/],
      [{ num_ctx: 2 }, /option "num_ctx" must be >= 16/],
    ];
    for (const [options, re] of cases) {
      const r = await postJson(`${server.url}/api/generate`, {
        model: "demo",
        prompt: "x",
        options,
      });
      assert.equal(r.status, 400, JSON.stringify(options));
      assert.match((r.body as { error: string }).error, re);
    }
    const notObject = await postJson(`${server.url}/api/chat`, {
      model: "demo",
      messages: [{ role: "user", content: "x" }],
      options: [1],
    });
    assert.equal(notObject.status, 400);
  });

  it("answers 400 for bad keep_alive, bad format, raw with system, and bad embed input", async () => {
    const ka = await postJson(`${server.url}/api/generate`, {
      model: "demo",
      prompt: "x",
      keep_alive: "3600",
    });
    assert.deepEqual(
      [ka.status, ka.body],
      [400, { error: 'time: missing unit in duration "3600"' }],
    );
    const fmt = await postJson(`${server.url}/api/generate`, {
      model: "demo",
      prompt: "x",
      format: "xml",
    });
    assert.equal(fmt.status, 400);
    assert.match((fmt.body as { error: string }).error, /invalid format/);
    const raw = await postJson(`${server.url}/api/generate`, {
      model: "demo",
      prompt: "x",
      raw: true,
      system: "s",
    });
    assert.deepEqual(raw.body, { error: "raw mode does not support template, system, or context" });
    const input = await postJson(`${server.url}/api/embed`, { model: "demo", input: 5 });
    assert.equal(input.status, 400);
    assert.match((input.body as { error: string }).error, /invalid input type/);
    const msgs = await postJson(`${server.url}/api/chat`, {
      model: "demo",
      messages: [{ content: "no role" }],
    });
    assert.equal(msgs.status, 400);
    assert.match((msgs.body as { error: string }).error, /messages\[0\]\.role/);
  });

  it("answers 400 for think on a model without thinking and for over-long embed input without truncate", async () => {
    const think = await postJson(`${server.url}/api/chat`, {
      model: "demo",
      messages: [{ role: "user", content: "x" }],
      think: true,
    });
    assert.deepEqual(
      [think.status, think.body],
      [400, { error: '"demo" does not support thinking' }],
    );
    const long = "word ".repeat(600); // at least a token a word, past the 512 window
    const refused = await postJson(`${server.url}/api/embed`, {
      model: "demo",
      input: long,
      truncate: false,
    });
    assert.deepEqual(
      [refused.status, refused.body],
      [400, { error: "the input length exceeds the context length" }],
    );
    const cut = await postJson(`${server.url}/api/embed`, { model: "demo", input: long });
    assert.equal(cut.status, 200);
    assert.equal(
      (cut.body as { prompt_eval_count: number }).prompt_eval_count,
      509,
      "cut to the window less BOS, EOS and one",
    );
  });

  it("answers 404 text for unknown routes and 405 for a wrong method", async () => {
    const r = await fetch(`${server.url}/api/nothing`);
    assert.equal(r.status, 404);
    const m = await fetch(`${server.url}/api/generate`);
    assert.equal(m.status, 405);
  });
});
