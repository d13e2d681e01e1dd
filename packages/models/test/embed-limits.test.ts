import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { loadConfig } from "../src/config.js";
import { EMBED_BATCH } from "../src/runtime/process-runtime.js";
import { postJson, startTestServer, type TestServer } from "./harness.js";

const CAP = 40;

describe("LLMSRV_MAX_EMBED_INPUTS", () => {
  it("defaults to 2048 and must be a positive integer", () => {
    assert.equal(loadConfig({}).maxEmbedInputs, 2048);
    assert.equal(loadConfig({ LLMSRV_MAX_EMBED_INPUTS: "7" }).maxEmbedInputs, 7);
    assert.throws(
      () => loadConfig({ LLMSRV_MAX_EMBED_INPUTS: "0" }),
      /LLMSRV_MAX_EMBED_INPUTS: expected an integer >= 1, got "0"/,
    );
  });
});

describe("embedding requests with many inputs", { timeout: 120_000 }, () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ LLMSRV_MAX_EMBED_INPUTS: String(CAP) });
  });
  after(() => server.stop());

  const cosine = (a: number[], b: number[]) =>
    a.reduce((n, x, k) => n + x * (b[k] ?? Number.NaN), 0) / (Math.hypot(...a) * Math.hypot(...b));
  const inputs = (n: number) => Array.from({ length: n }, (_, i) => `note number ${i}`);

  it("answers 400 naming the cap when /api/embed gets more inputs than LLMSRV_MAX_EMBED_INPUTS", async () => {
    const r = await postJson(`${server.url}/api/embed`, { model: "demo", input: inputs(CAP + 1) });
    assert.equal(r.status, 400);
    assert.equal(
      (r.body as { error: string }).error,
      `too many inputs: ${CAP + 1}, at most ${CAP} per embedding request (LLMSRV_MAX_EMBED_INPUTS)`,
    );
  });

  it("applies the same cap to /v1/embeddings, in OpenAI's error shape", async () => {
    const r = await postJson(`${server.url}/v1/embeddings`, {
      model: "demo",
      input: inputs(CAP + 1),
    });
    assert.equal(r.status, 400);
    assert.match(
      (r.body as { error: { message: string } }).error.message,
      new RegExp(`at most ${CAP} per embedding request`),
    );
  });

  it("embeds inputs up to the cap across several batches, in order, as one by one", async () => {
    assert.ok(CAP > 2 * EMBED_BATCH, "the request spans at least three batches");
    const all = await postJson(`${server.url}/api/embed`, { model: "demo", input: inputs(CAP) });
    assert.equal(all.status, 200, all.text);
    const body = all.body as { embeddings: number[][]; prompt_eval_count: number };
    assert.equal(body.embeddings.length, CAP);
    for (const i of [0, EMBED_BATCH - 1, EMBED_BATCH, CAP - 1]) {
      const one = await postJson(`${server.url}/api/embed`, {
        model: "demo",
        input: inputs(CAP)[i],
      });
      const expected = (one.body as { embeddings: number[][] }).embeddings[0] ?? [];
      const got = body.embeddings[i] ?? [];
      assert.equal(got.length, 2048);
      // Texts decoded in one group differ from a text decoded alone in the fifth or sixth
      // digit (attention over the group's window): the same direction, not the same bits.
      const own = cosine(got, expected);
      assert.ok(own > 1 - 1e-4, `input ${i}: cosine ${own} to its own embedding`);
      const neighbour = body.embeddings[i === 0 ? 1 : i - 1] ?? [];
      assert.ok(cosine(neighbour, expected) < own, `input ${i} is nearer another input's vector`);
    }
    assert.ok(body.prompt_eval_count >= CAP, "every input's tokens are counted");
  });
});
