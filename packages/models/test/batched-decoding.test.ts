// Several generations on one model at once (LLMSRV_NUM_PARALLEL=4), decoded as one batch.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startStreaming, startTestServer, storiesSkip, type TestServer } from "./harness.js";
import { createStories, ndjsonLines, post } from "./stories-model.js";

const PROMPTS = [
  "Once upon a time",
  "The little dog",
  "One day, a girl named Lily",
  "Tom and his mom went to the park",
];
/** Greedy and seeded: the same prompt gives the same tokens, whatever runs beside it. */
const GREEDY = { temperature: 0, seed: 7, num_predict: 80 };

interface Generated {
  text: string;
  pieces: number;
  evalCount: number;
  doneReason: string;
}

/** One streamed /api/generate, read to its end: the joined text, piece count and final line. */
async function streamed(url: string, prompt: string, options = GREEDY): Promise<Generated> {
  const res = await post(`${url}/api/generate`, { model: "stories", prompt, options });
  assert.equal(res.status, 200);
  const lines = await ndjsonLines(res);
  const last = lines.at(-1) ?? {};
  assert.equal(last.done, true, JSON.stringify(last));
  const body = lines.slice(0, -1);
  assert.ok(body.every((l) => l.done === false));
  return {
    text: lines.map((l) => l.response ?? "").join(""),
    pieces: body.length,
    evalCount: last.eval_count as number,
    doneReason: last.done_reason as string,
  };
}

/** The same generation, not streamed. */
async function whole(url: string, prompt: string, options = GREEDY): Promise<Generated> {
  const res = await post(`${url}/api/generate`, {
    model: "stories",
    prompt,
    options,
    stream: false,
  });
  assert.equal(res.status, 200);
  const r = (await res.json()) as Record<string, unknown>;
  return {
    text: r.response as string,
    pieces: 1,
    evalCount: r.eval_count as number,
    doneReason: r.done_reason as string,
  };
}

describe("batched decoding of parallel sequences", {
  skip: storiesSkip(),
  timeout: 300_000,
}, () => {
  let server: TestServer;
  /** Each prompt's generation run alone, before anything runs in parallel. */
  const alone = new Map<string, Generated>();

  before(async () => {
    server = await startTestServer({ LLMSRV_NUM_PARALLEL: "4" }, { ensureDemo: false });
    await createStories(server.url, "stories");
    for (const p of PROMPTS) alone.set(p, await whole(server.url, p));
  });
  after(() => server.stop());

  it("four concurrent streams give the text and token counts of one at a time", async () => {
    const results = await Promise.all(PROMPTS.map((p) => streamed(server.url, p)));
    for (const [i, p] of PROMPTS.entries()) {
      const single = alone.get(p);
      const r = results[i];
      assert.ok(single && r);
      assert.equal(r.text, single.text, `prompt ${JSON.stringify(p)}`);
      assert.equal(r.evalCount, single.evalCount);
      assert.equal(r.doneReason, single.doneReason);
      assert.ok(r.pieces >= 1);
    }
    // At least one generation ran to its limit, so the batch had work for every step.
    assert.ok(results.some((r) => r.evalCount === GREEDY.num_predict));
  });

  it("a stream whose client disconnects leaves the others' text unchanged", async () => {
    const long = { ...GREEDY, num_predict: 200 };
    const dropped = await startStreaming(server.url, {
      model: "stories",
      prompt: "The sun was shining",
      options: long,
    });
    const others = PROMPTS.slice(0, 3).map((p) => streamed(server.url, p));
    dropped.abort();
    const results = await Promise.all(others);
    for (const [i, p] of PROMPTS.slice(0, 3).entries())
      assert.equal(results[i]?.text, alone.get(p)?.text, `prompt ${JSON.stringify(p)}`);
  });

  it("a request that fails beside running ones fails alone, with its own error", async () => {
    const running = PROMPTS.slice(0, 3).map((p) => streamed(server.url, p));
    const tooLong = await post(`${server.url}/api/generate`, {
      model: "stories",
      prompt: "once upon a time ".repeat(400),
      truncate: false,
      stream: false,
    });
    assert.equal(tooLong.status, 400);
    assert.match(((await tooLong.json()) as { error: string }).error, /context length/);
    const results = await Promise.all(running);
    for (const [i, p] of PROMPTS.slice(0, 3).entries())
      assert.equal(results[i]?.text, alone.get(p)?.text);
  });

  it("keeps giving the same text once the parallel requests are over", async () => {
    const p = PROMPTS[0] ?? "";
    assert.equal((await whole(server.url, p)).text, alone.get(p)?.text);
  });
});
