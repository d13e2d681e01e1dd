import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { EmbeddingError } from "../src/errors.js";
import { Embedder, type EmbedderOptions } from "../src/loader/embedder.js";
import {
  deadEndpointUrl,
  type Endpoint,
  hashVector,
  startEmbeddingsEndpoint,
} from "./embeddings-endpoint.js";

const dim = 8;
const endpoints: Endpoint[] = [];
after(() => Promise.all(endpoints.map((e) => e.close())));

async function endpoint(plan?: Parameters<typeof startEmbeddingsEndpoint>[0]["plan"]) {
  const e = await startEmbeddingsEndpoint({ dim, plan });
  endpoints.push(e);
  return e;
}

function embedder(baseUrl: string, overrides: Partial<EmbedderOptions> = {}) {
  return new Embedder({
    baseUrl,
    model: "demo:latest",
    apiKey: "quintet",
    timeoutMs: 10_000,
    retries: 3,
    retryBaseMs: 5,
    ...overrides,
  });
}

describe("embeddings client", () => {
  it("sends a batch as one request with array input and returns the vectors in input order", async () => {
    const e = await endpoint();
    const vectors = await embedder(e.url).embed(["one", "two", "three"]);
    assert.equal(e.requests.length, 1);
    assert.deepEqual(e.requests[0], ["one", "two", "three"]);
    assert.deepEqual(e.arrayInputs, [true]);
    assert.deepEqual(vectors[1], hashVector("two", dim));
  });

  it("retries after 429 and 500 answers and then succeeds", async () => {
    const e = await endpoint((_, n) =>
      n === 1
        ? { status: 429, headers: { "retry-after-ms": "1" } }
        : n === 2
          ? { status: 503 }
          : undefined,
    );
    const client = embedder(e.url);
    const [vector] = await client.embed(["retry me"]);
    assert.equal(vector?.length, dim);
    assert.equal(e.requests.length, 3);
    assert.equal(client.requests, 3);
  });

  it("retries a request that times out", async () => {
    const e = await endpoint((_, n) => (n === 1 ? { delayMs: 5000 } : undefined));
    const [vector] = await embedder(e.url, { timeoutMs: 1500 }).embed(["slow"]);
    assert.equal(vector?.length, dim);
    assert.equal(e.requests.length, 2);
  });

  it("gives up after the configured retries and says why", async () => {
    const e = await endpoint(() => ({ status: 500 }));
    await assert.rejects(embedder(e.url, { retries: 2 }).embed(["doomed"]), (error: unknown) => {
      assert.ok(error instanceof EmbeddingError);
      assert.equal(error.code, "embedding_failed");
      assert.equal(error.status, 500);
      assert.match(error.message, /after 3 attempts: HTTP 500/);
      return true;
    });
    assert.equal(e.requests.length, 3);
  });

  it("does not retry a client error such as 400", async () => {
    const e = await endpoint(() => ({ status: 400 }));
    await assert.rejects(embedder(e.url).embed(["bad"]), /HTTP 400/);
    assert.equal(e.requests.length, 1);
  });

  it("reports a refused connection as such after retrying", async () => {
    const url = await deadEndpointUrl();
    await assert.rejects(
      embedder(url, { retries: 1 }).embed(["anyone?"]),
      /after 2 attempts: cannot connect/,
    );
  });

  it("returns undefined for an input whose embedding the response lacks", async () => {
    const e = await endpoint(() => ({ omit: ["gap"] }));
    const vectors = await embedder(e.url).embed(["before", "gap", "after"]);
    assert.equal(vectors[0]?.length, dim);
    assert.equal(vectors[1], undefined);
    assert.equal(vectors[2]?.length, dim);
  });

  it("embeds a single query text with a string input", async () => {
    const e = await endpoint();
    const vector = await embedder(e.url).embedOne("query");
    assert.equal(vector.length, dim);
    assert.deepEqual(e.arrayInputs, [false]);
  });
});
