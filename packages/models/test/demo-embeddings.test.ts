/**
 * The demo model's embeddings through the server (node-llama-cpp computing them from the
 * generated GGUF): texts that share words are close, texts that share none or only
 * function words are not, and case or a plural does not change a word's vector.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { postJson, startTestServer, type TestServer } from "./harness.js";

/** Cosine similarity of two L2-normalised vectors (their dot product). */
function cosine(a: number[], b: number[]): number {
  assert.equal(a.length, b.length);
  return a.reduce((sum, x, i) => sum + x * (b[i] ?? Number.NaN), 0);
}

describe("demo model embeddings", { timeout: 300_000 }, () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.stop());

  /** Embeds every text in one request; the vectors come back L2-normalised. */
  async function embed(...texts: string[]): Promise<number[][]> {
    const r = await postJson(`${server.url}/api/embed`, { model: "demo", input: texts });
    assert.equal(r.status, 200, r.text);
    return (r.body as { embeddings: number[][] }).embeddings;
  }

  it("puts texts that share words closer than texts that share none", async () => {
    const [hunt, query, garden] = await embed(
      "The old captain hunts the white whale across the ocean.",
      "a whale hunt at sea",
      "a quiet garden in the spring rain",
    );
    const shared = cosine(hunt ?? [], query ?? []);
    const none = cosine(hunt ?? [], garden ?? []);
    assert.ok(shared > 0.3, `texts sharing "whale" and "hunt": cosine ${shared}`);
    assert.ok(Math.abs(none) < 0.1, `texts sharing no word: cosine ${none}`);
    assert.ok(shared > none + 0.25, `shared ${shared} vs none ${none}`);
  });

  it("gives function words no weight: sharing only them leaves texts apart", async () => {
    const [a, b, c] = await embed("a whale at the sea", "a garden at the house", "whale sea");
    const onlyFunctionWords = cosine(a ?? [], b ?? []);
    const sameWords = cosine(a ?? [], c ?? []);
    assert.ok(Math.abs(onlyFunctionWords) < 0.1, `"a", "at", "the" shared: ${onlyFunctionWords}`);
    assert.ok(
      sameWords > 0.95,
      `the same content words with and without function words: ${sameWords}`,
    );
  });

  it("gives a word one vector whatever its case or a plural/-ing ending", async () => {
    const [lower, capital, plural, ing, other] = await embed(
      "whale",
      "Whale",
      "whales",
      "whaling",
      "garden",
    );
    for (const [name, v] of [
      ["Whale", capital],
      ["whales", plural],
      ["whaling", ing],
    ] as const) {
      const c = cosine(lower ?? [], v ?? []);
      assert.ok(c > 0.95, `whale vs ${name}: cosine ${c}`);
    }
    assert.ok(cosine(lower ?? [], other ?? []) < 0.1, "whale vs garden");
  });
});
