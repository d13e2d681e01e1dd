import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { DEMO_CHAT_TEMPLATE, writeDemoModel } from "../src/demo/demo-model.js";
import { postJson, startTestServer, type TestServer } from "./harness.js";

/** The demo GGUF with its chat template replaced by `template` (padded to the same length). */
async function demoWithChatTemplate(template: string): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), "llmsrv-tpl-"));
  try {
    const path = join(dir, "m.gguf");
    await writeDemoModel(path, { embeddingLength: 64, headCount: 4, headCountKv: 2 });
    const bytes = await readFile(path);
    const at = bytes.indexOf(DEMO_CHAT_TEMPLATE);
    const pad = DEMO_CHAT_TEMPLATE.length - template.length - 4;
    assert.ok(at > 0 && pad >= 0);
    bytes.write(`${template}{#${"x".repeat(pad)}#}`, at);
    return bytes;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** `depth` ranges over .Messages nested in each other: messages^depth iterations. */
function nestedRanges(depth: number): string {
  return `${"{{ range $.Messages }}".repeat(depth)}{{ .Content }}${"{{ end }}".repeat(depth)}`;
}

function nestedFors(depth: number): string {
  const loops = Array.from({ length: depth }, (_, i) => `{% for m${i} in messages %}`).join("");
  return `${loops}x${"{% endfor %}".repeat(depth)}`;
}

function conversation(length: number): Array<{ role: string; content: string }> {
  return Array.from({ length }, (_, i) => ({
    role: i % 2 === 0 ? "user" : "assistant",
    content: `m${i}`,
  }));
}

describe("template limits over HTTP", { timeout: 120_000 }, () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.stop());

  async function stillAnswers(): Promise<void> {
    const version = await fetch(`${server.url}/api/version`);
    assert.equal(version.status, 200, "the server still answers");
  }

  it("refuses at create a template that loops too much on a sample conversation (400)", async () => {
    const r = await postJson(`${server.url}/api/create`, {
      model: "looping",
      from: "demo",
      template: nestedRanges(8),
      stream: false,
    });
    assert.equal(r.status, 400, r.text);
    assert.match((r.body as { error: string }).error, /^template: more than/);
    const show = await postJson(`${server.url}/api/show`, { model: "looping" });
    assert.equal(show.status, 404, "nothing was stored");
    await stillAnswers();
  });

  it("refuses at create a GGUF whose chat template loops too much on a sample conversation (400)", async () => {
    const bytes = await demoWithChatTemplate(nestedFors(7));
    const digest = `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
    const up = await fetch(`${server.url}/api/blobs/${digest}`, { method: "POST", body: bytes });
    assert.equal(up.status, 201);
    const r = await postJson(`${server.url}/api/create`, {
      model: "looping-gguf",
      files: { "m.gguf": digest },
      stream: false,
    });
    assert.equal(r.status, 400, r.text);
    assert.match((r.body as { error: string }).error, /^template: more than \d+ steps/);
    await stillAnswers();
  });

  it("refuses at create a template that does not parse (400)", async () => {
    const r = await postJson(`${server.url}/api/create`, {
      model: "broken",
      from: "demo",
      template: "{{ if .System }}unfinished",
      stream: false,
    });
    assert.equal(r.status, 400, r.text);
    assert.match(
      (r.body as { error: string }).error,
      /template: :1: unexpected EOF: missing \{\{ end \}\}/,
    );
  });

  it("answers 400 at chat when a long conversation makes the template loop too much, then serves normal chats", async () => {
    const created = await postJson(`${server.url}/api/create`, {
      model: "quartic",
      from: "demo",
      template: nestedRanges(4),
      stream: false,
    });
    assert.equal(created.status, 200, "six sample messages stay within the limits");
    for (const stream of [false, true]) {
      const r = await postJson(`${server.url}/api/chat`, {
        model: "quartic",
        messages: conversation(60),
        stream,
      });
      assert.equal(r.status, 400, r.text);
      assert.match((r.body as { error: string }).error, /^template: more than 1000000 steps/);
    }
    await stillAnswers();
    const ok = await postJson(`${server.url}/api/chat`, {
      model: "quartic",
      messages: conversation(2),
      stream: false,
      options: { num_predict: 1 },
    });
    assert.equal(ok.status, 200, ok.text);
  });

  it("answers 400 when a request's own template loops too much, on generate", async () => {
    const r = await postJson(`${server.url}/api/generate`, {
      model: "demo",
      prompt: "x",
      template: "{{ range 1000000000000 }}{{ $.Prompt }}{{ end }}",
      stream: false,
    });
    assert.equal(r.status, 400, r.text);
    assert.match((r.body as { error: string }).error, /steps/);
    await stillAnswers();
  });
});
