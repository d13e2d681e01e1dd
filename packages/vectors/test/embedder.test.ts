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

type EndpointOptions = Parameters<typeof startEmbeddingsEndpoint>[0];

async function endpoint(plan?: EndpointOptions["plan"], base64?: EndpointOptions["base64"]) {
  const e = await startEmbeddingsEndpoint({ dim, plan, base64 });
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

  it("does not retry a client error such as 400 once base64 has worked", async () => {
    const e = await endpoint((inputs) => (inputs.includes("bad") ? { status: 400 } : undefined));
    const client = embedder(e.url);
    await client.embed(["good"]);
    await assert.rejects(client.embed(["bad"]), /HTTP 400/);
    assert.deepEqual(e.encodings, ["base64", "base64"]);
  });

  it("asks a 400 once more as floats before base64 has worked, and gives the error when that fails too", async () => {
    const e = await endpoint(() => ({ status: 400 }));
    const client = embedder(e.url);
    await assert.rejects(client.embed(["bad"]), /HTTP 400/);
    assert.deepEqual(e.encodings, ["base64", "float"]);
    assert.equal(client.requests, 2);
    assert.equal(client.encoding, "base64", "an input's 400 does not turn base64 off");
  });

  it("asks for base64 float32 and reads the vectors from it", async () => {
    const e = await endpoint();
    const vectors = await embedder(e.url).embed(["one", "two"]);
    assert.deepEqual(e.encodings, ["base64"]);
    assert.deepEqual(vectors, [hashVector("one", dim), hashVector("two", dim)]);
  });

  it("reads numbers from an endpoint that ignores encoding_format", async () => {
    const e = await endpoint(undefined, "ignore");
    const vectors = await embedder(e.url).embed(["one", "two"]);
    assert.deepEqual(vectors, [hashVector("one", dim), hashVector("two", dim)]);
  });

  it("turns to floats for good when the endpoint refuses base64", async () => {
    const e = await endpoint(undefined, "float-only");
    const client = embedder(e.url);
    assert.deepEqual(await client.embed(["one"]), [hashVector("one", dim)]);
    assert.deepEqual(await client.embed(["two", "three"]), [
      hashVector("two", dim),
      hashVector("three", dim),
    ]);
    assert.deepEqual(e.encodings, ["base64", "float", "float"]);
    assert.equal(client.encoding, "float");
  });

  it("leaves the same vectors when many batches meet an endpoint without base64 at once", async () => {
    const e = await endpoint(undefined, "float-only");
    const client = embedder(e.url);
    const texts = Array.from({ length: 12 }, (_, i) => `text ${i}`);
    const vectors = await Promise.all(texts.map((t) => client.embed([t])));
    assert.deepEqual(
      vectors,
      texts.map((t) => [hashVector(t, dim)]),
    );
    assert.equal(client.encoding, "float");
    // Only the batches sent before the first refusal came back asked twice.
    assert.ok(e.encodings.filter((f) => f === "base64").length <= texts.length);
    assert.equal(e.encodings.filter((f) => f === "float").length, texts.length);
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
