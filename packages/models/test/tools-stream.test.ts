import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { postJson, startTestServer, storiesSkip, type TestServer } from "./harness.js";
import { createStories, ndjsonLines, post, sseEvents } from "./stories-model.js";

type Json = Record<string, unknown>;
const TOOLS = [
  {
    type: "function",
    function: {
      name: "find_cat",
      description: "finds a cat",
      parameters: { type: "object", properties: {} },
    },
  },
];
const body = {
  model: "tooly",
  messages: [{ role: "user", content: "Once upon a time, there was a" }],
  tools: TOOLS,
  options: { temperature: 0, num_predict: 20 },
};

describe("streaming with tools (stories260K)", { skip: storiesSkip(), timeout: 300_000 }, () => {
  let server: TestServer;
  let url: string;
  before(async () => {
    server = await startTestServer({}, { ensureDemo: false });
    url = server.url;
    const template = "{{- range .Messages }}{{ .Content }}{{ end }}{{ with .Tools }}{{ end }}";
    await createStories(url, "tooly", { template });
  });
  after(() => server.stop());

  it("streams text as it is generated when tools are offered (native)", async () => {
    const whole = await postJson(`${url}/api/chat`, { ...body, stream: false });
    const content = String(((whole.body as Json).message as Json).content);
    const lines = await ndjsonLines(await post(`${url}/api/chat`, { ...body, stream: true }));
    const pieces = lines.filter((l) => !l.done).map((l) => String((l.message as Json).content));
    assert.ok(pieces.length > 5, `streamed in ${pieces.length} pieces`);
    assert.equal(pieces.join(""), content);
  });

  it("streams text as it is generated when tools are offered (OpenAI)", async () => {
    const events = await sseEvents(
      await post(`${url}/v1/chat/completions`, {
        model: "tooly",
        messages: body.messages,
        tools: TOOLS,
        temperature: 0,
        max_tokens: 20,
        stream: true,
      }),
    );
    const pieces = events
      .map((e) => ((e.choices as Json[])[0]?.delta as Json | undefined)?.content)
      .filter((c) => typeof c === "string" && c !== "");
    assert.ok(pieces.length > 5, `streamed in ${pieces.length} pieces`);
  });
});
