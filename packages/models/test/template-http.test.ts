import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { postJson, startTestServer, type TestServer } from "./harness.js";

/** Prompt tokens the demo model counts for `body` on `path`. */
async function promptTokens(server: TestServer, path: string, body: object): Promise<number> {
  const r = await postJson(`${server.url}${path}`, {
    stream: false,
    options: { num_predict: 1, temperature: 0 },
    ...body,
  });
  assert.equal(r.status, 200, r.text);
  return (r.body as { prompt_eval_count: number }).prompt_eval_count;
}

describe("templates through the HTTP API", { timeout: 120_000 }, () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.stop());

  it("refuses at create, with 400 and the line, a template reading a missing field or calling an unknown function", async () => {
    for (const [template, pattern] of [
      [
        "{{ range .Messages }}\n{{ .Role }}: {{ .Contents }}\n{{ end }}",
        /template: :2: can't evaluate field Contents in type api.Message/,
      ],
      ["{{ .System }}\n\n{{ .Promt }}", /template: :3: the template data has no field "Promt"/],
      [
        "{{ range .Messages }}{{ titlecase .Content }}{{ end }}",
        /template: :1: function "titlecase" not defined/,
      ],
    ] as const) {
      const r = await postJson(`${server.url}/api/create`, {
        model: "bad-template",
        from: "demo",
        template,
        stream: false,
      });
      assert.equal(r.status, 400, r.text);
      assert.match((r.body as { error: string }).error, pattern);
    }
    assert.equal((await postJson(`${server.url}/api/show`, { model: "bad-template" })).status, 404);
  });

  it("keeps the whole history for a template without .Messages, as one turn per exchange", async () => {
    const created = await postJson(`${server.url}/api/create`, {
      model: "legacy",
      from: "demo",
      template: "[{{ .Prompt }}|{{ .Response }}]",
      stream: false,
    });
    assert.equal(created.status, 200, created.text);
    const messages = [
      { role: "user", content: "first question" },
      { role: "assistant", content: "first answer" },
      { role: "user", content: "second" },
    ];
    const chat = await promptTokens(server, "/api/chat", { model: "legacy", messages });
    const raw = await promptTokens(server, "/api/generate", {
      model: "legacy",
      raw: true,
      prompt: "[first question|first answer][second|",
    });
    assert.equal(chat, raw);
  });

  it("passes think to the template's .Think and .ThinkLevel, on chat and generate", async () => {
    const created = await postJson(`${server.url}/api/create`, {
      model: "thinker",
      from: "demo",
      template:
        "{{ if .Think }}<think:{{ .ThinkLevel }}>{{ end }}{{ range .Messages }}{{ .Content }}{{ end }}",
      stream: false,
    });
    assert.equal(created.status, 200, created.text);
    const messages = [{ role: "user", content: "question" }];
    const raw = (prompt: string) =>
      promptTokens(server, "/api/generate", { model: "thinker", raw: true, prompt });
    for (const [think, rendered] of [
      [true, "<think:>question"],
      ["high", "<think:high>question"],
      [false, "question"],
    ] as const) {
      assert.equal(
        await promptTokens(server, "/api/chat", { model: "thinker", messages, think }),
        await raw(rendered),
      );
      assert.equal(
        await promptTokens(server, "/api/generate", {
          model: "thinker",
          prompt: "question",
          think,
        }),
        await raw(rendered),
      );
    }
  });
});
