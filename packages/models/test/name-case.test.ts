import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createTinyModel, postJson, startTestServer, type TestServer } from "./harness.js";

async function tags(url: string): Promise<string[]> {
  const res = await fetch(`${url}/api/tags`);
  return ((await res.json()) as { models: Array<{ name: string }> }).models
    .map((m) => m.name)
    .sort();
}

describe("names differing only by case are one model", { timeout: 120_000 }, () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({}, {});
    await createTinyModel(server.url, "story", 61);
  });
  after(() => server.stop());

  it("refuses create Story while story exists, in Ollama's words, and lists one model", async () => {
    const res = await postJson(`${server.url}/api/create`, { model: "Story", from: "story" });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { error: "a model with that name already exists" });
    const streamed = await postJson(`${server.url}/api/create`, {
      model: "STORY:latest",
      from: "story",
      stream: false,
    });
    assert.equal(streamed.status, 400);
    assert.deepEqual(await tags(server.url), ["story:latest"]);
  });

  it("still updates the model under its own spelling", async () => {
    const res = await postJson(`${server.url}/api/create`, {
      model: "story",
      from: "story",
      system: "updated",
      stream: false,
    });
    assert.equal(res.status, 200, res.text);
    const show = await postJson(`${server.url}/api/show`, { model: "story" });
    assert.equal((show.body as { system: string }).system, "updated");
  });

  it("show and generate find the model under any case", async () => {
    const show = await postJson(`${server.url}/api/show`, { model: "STORY" });
    assert.equal(show.status, 200, show.text);
    const gen = await postJson(`${server.url}/api/generate`, {
      model: "Story:Latest",
      prompt: "x",
      stream: false,
      options: { num_predict: 1 },
    });
    assert.equal(gen.status, 200, gen.text);
  });

  it("copy resolves the source under any case and refuses a destination that is a case variant", async () => {
    const ok = await postJson(`${server.url}/api/copy`, { source: "STORY", destination: "tale" });
    assert.equal(ok.status, 200, ok.text);
    const clash = await postJson(`${server.url}/api/copy`, {
      source: "story",
      destination: "Tale",
    });
    assert.equal(clash.status, 400);
    assert.deepEqual(clash.body, { error: "a model with that name already exists" });
    assert.deepEqual(await tags(server.url), ["story:latest", "tale:latest"]);
  });

  it("delete removes the model named in another case", async () => {
    const res = await postJson(`${server.url}/api/delete`, { model: "TALE" }, { method: "DELETE" });
    assert.equal(res.status, 200);
    assert.deepEqual(await tags(server.url), ["story:latest"]);
  });
});
