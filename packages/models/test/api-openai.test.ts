import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import OpenAI from "openai";
import { postJson, startTestServer, type TestServer } from "./harness.js";

describe("OpenAI-compatible API with the official openai client", { timeout: 300_000 }, () => {
  let server: TestServer;
  let client: OpenAI;

  before(async () => {
    server = await startTestServer();
    client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "dummy-key" });
  });
  after(() => server.stop());

  it("lists and retrieves models, 404 in OpenAI's error shape for an unknown one", async () => {
    const list = await client.models.list();
    assert.ok(
      list.data.some(
        (m) => m.id === "demo:latest" && m.object === "model" && m.owned_by === "library",
      ),
    );
    const one = await client.models.retrieve("demo:latest");
    assert.equal(one.id, "demo:latest");
    await assert.rejects(
      client.models.retrieve("missing:latest"),
      (e: InstanceType<typeof OpenAI.APIError>) => {
        assert.equal(e.status, 404);
        assert.equal((e.error as { type?: string }).type, "not_found_error");
        return true;
      },
    );
  });

  it("completes a chat without streaming, with usage and a finish reason", async () => {
    const r = await client.chat.completions.create({
      model: "demo",
      messages: [{ role: "user", content: "hello" }],
      max_tokens: 8,
      seed: 3,
    });
    assert.equal(r.object, "chat.completion");
    assert.match(r.id, /^chatcmpl-/);
    assert.equal(r.choices[0]?.message.role, "assistant");
    assert.ok((r.choices[0]?.message.content ?? "").length > 0);
    assert.equal(r.choices[0]?.finish_reason, "length");
    assert.equal(r.usage?.completion_tokens, 8);
    assert.equal(r.usage?.total_tokens, (r.usage?.prompt_tokens ?? 0) + 8);
  });

  it("streams a chat over SSE: role first, content deltas, a finish chunk, usage, [DONE]", async () => {
    const whole = await client.chat.completions.create({
      model: "demo",
      messages: [{ role: "user", content: "s" }],
      max_tokens: 10,
      seed: 11,
    });
    const stream = await client.chat.completions.create({
      model: "demo",
      messages: [{ role: "user", content: "s" }],
      max_tokens: 10,
      seed: 11,
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = "";
    let firstRole: string | undefined;
    let finish: string | null | undefined;
    let usage: number | undefined;
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      firstRole ??= choice?.delta.role;
      text += choice?.delta.content ?? "";
      if (choice?.finish_reason) finish = choice.finish_reason;
      if (chunk.usage) usage = chunk.usage.completion_tokens;
    }
    assert.equal(firstRole, "assistant");
    assert.equal(text, whole.choices[0]?.message.content);
    assert.equal(finish, "length");
    assert.equal(usage, 10);
  });

  it("gives structured output for response_format json_schema", async () => {
    const r = await client.chat.completions.create({
      model: "demo",
      messages: [{ role: "user", content: "give json" }],
      max_tokens: 200,
      seed: 8,
      response_format: {
        type: "json_schema",
        json_schema: {
          name: "t",
          schema: { type: "object", properties: { v: { type: "integer" } }, required: ["v"] },
        },
      },
    });
    const content = r.choices[0]?.message.content ?? "";
    const parsed = JSON.parse(content) as { v: unknown };
    assert.equal(typeof parsed.v, "number");
    // An integer as the schema grammar writes one: no fraction, maybe an exponent (node-llama-cpp's
    // generator allows one, so a sampled "4E45..." parses to Infinity).
    assert.match(content, /"v"\s*:\s*-?(0|[1-9]\d*)([eE][-+]?(0|[1-9]\d*))?\s*}/);
  });

  it("returns OpenAI tool calls with JSON-string arguments and finish_reason tool_calls", async () => {
    const r = await client.chat.completions.create({
      model: "demo",
      messages: [{ role: "user", content: "call it" }],
      tools: [
        {
          type: "function",
          function: {
            name: "lookup",
            parameters: { type: "object", properties: { q: { type: "string" } } },
          },
        },
      ],
      response_format: {
        type: "json_schema",
        json_schema: {
          name: "call",
          schema: {
            type: "object",
            properties: {
              name: { const: "lookup" },
              arguments: {
                type: "object",
                properties: { q: { type: "string", maxLength: 5 } },
                required: ["q"],
              },
            },
            required: ["name", "arguments"],
          },
        },
      },
      max_tokens: 120,
      seed: 2,
    });
    const call = r.choices[0]?.message.tool_calls?.[0];
    assert.equal(r.choices[0]?.finish_reason, "tool_calls");
    assert.equal(call?.type, "function");
    assert.equal(call?.type === "function" ? call.function.name : "", "lookup");
    const args = JSON.parse(call?.type === "function" ? call.function.arguments : "") as {
      q: unknown;
    };
    assert.equal(typeof args.q, "string");
  });

  it("completes text with /v1/completions, streaming and not, with the same text for one seed", async () => {
    const r = await client.completions.create({
      model: "demo",
      prompt: "Once",
      max_tokens: 6,
      seed: 5,
    });
    assert.equal(r.object, "text_completion");
    assert.equal(r.choices[0]?.finish_reason, "length");
    assert.equal(r.usage?.completion_tokens, 6);
    let text = "";
    for await (const c of await client.completions.create({
      model: "demo",
      prompt: "Once",
      max_tokens: 6,
      seed: 5,
      stream: true,
    })) {
      text += c.choices[0]?.text ?? "";
    }
    assert.equal(text, r.choices[0]?.text);
  });

  it("embeds with float and base64 encodings and honours dimensions", async () => {
    const f = await client.embeddings.create({
      model: "demo",
      input: ["a", "b"],
      encoding_format: "float",
    });
    assert.equal(f.data.length, 2);
    assert.equal(f.data[0]?.embedding.length, 2048);
    const b = await client.embeddings.create({ model: "demo", input: "a" });
    const fa = f.data[0]?.embedding ?? [];
    assert.ok((b.data[0]?.embedding ?? []).every((x, i) => Math.abs(x - (fa[i] ?? 0)) < 1e-5));
    const d = await client.embeddings.create({
      model: "demo",
      input: "a",
      dimensions: 16,
      encoding_format: "float",
    });
    assert.equal(d.data[0]?.embedding.length, 16);
  });

  it("answers bad requests with 400 in OpenAI's error shape", async () => {
    const empty = await postJson(`${server.url}/v1/chat/completions`, {
      model: "demo",
      messages: [],
    });
    assert.equal(empty.status, 400);
    assert.deepEqual(empty.body, {
      error: {
        message: "[] is too short - 'messages'",
        type: "invalid_request_error",
        param: null,
        code: null,
      },
    });
    const url = await postJson(`${server.url}/v1/chat/completions`, {
      model: "demo",
      messages: [
        { role: "user", content: [{ type: "image_url", image_url: { url: "https://x/y.png" } }] },
      ],
    });
    assert.equal(url.status, 400);
    const emb = await postJson(`${server.url}/v1/embeddings`, { model: "demo", input: [] });
    assert.equal(emb.status, 400);
    assert.match((emb.body as { error: { message: string } }).error.message, /invalid input/);
    const enc = await postJson(`${server.url}/v1/embeddings`, {
      model: "demo",
      input: "x",
      encoding_format: "hex",
    });
    assert.equal(enc.status, 400);
    await assert.rejects(
      client.embeddings.create({ model: "ghost", input: "x" }),
      (e: { status?: number }) => e.status === 404,
    );
  });
});

describe("LLMSRV_API_KEY", { timeout: 120_000 }, () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ LLMSRV_API_KEY: "s3cret" });
  });
  after(() => server.stop());

  it("rejects requests without the key or with a wrong one with 401", async () => {
    const wrong = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "wrong" });
    await assert.rejects(wrong.models.list(), (e: { status?: number }) => e.status === 401);
    const none = await fetch(`${server.url}/api/tags`);
    assert.equal(none.status, 401);
    assert.deepEqual(await none.json(), { error: "invalid or missing API key" });
  });

  it("accepts the right key on native and OpenAI routes; / stays open for health checks", async () => {
    const right = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "s3cret" });
    const list = await right.models.list();
    assert.ok(list.data.length >= 1);
    const tags = await fetch(`${server.url}/api/tags`, {
      headers: { Authorization: "Bearer s3cret" },
    });
    assert.equal(tags.status, 200);
    assert.equal((await fetch(`${server.url}/`)).status, 200);
  });
});
