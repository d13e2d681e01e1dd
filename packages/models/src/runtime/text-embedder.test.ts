// Embeddings decoded several texts at a time: the same vectors as node-llama-cpp's one by one.
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { skipUnlessProvided } from "@quintet/kit/testing";
import type { LlamaModel } from "node-llama-cpp";
import { writeDemoModel } from "../demo/demo-model.js";
import { LlmsrvError } from "../errors.js";
import { type OpenedLlama, openLlama } from "./llama-backend.js";
import type { LoadSpec } from "./model-runner.js";
import type { NativeMtmdModel } from "./mtmd/mtmd-addon.js";
import { addonMissing } from "./mtmd/test-support.js";
import { EMBED_SEQUENCES, TextEmbedder } from "./text-embedder.js";

const TINY = { embeddingLength: 64, headCount: 4, headCountKv: 2, feedForwardLength: 128 };
const never = new AbortController().signal;

function cosine(v: number[], w: number[]): number {
  assert.equal(v.length, w.length);
  const dot = v.reduce((n, x, k) => n + x * (w[k] ?? 0), 0);
  return dot / (Math.hypot(...v) * Math.hypot(...w));
}

/**
 * Asserts that `a[i]` points the way `b[i]` does (cosine above 1 - 1e-4) and is nearer to it
 * than to any other `b[j]`: what a vector search reads. Texts decoded in one group are not
 * bit-identical to texts decoded alone (llama.cpp's attention runs over the group's shared
 * window, which changes float rounding in the fifth or sixth digit).
 */
function assertSameVectors(a: number[][], b: number[][]): void {
  assert.equal(a.length, b.length);
  a.forEach((v, i) => {
    const own = cosine(v, b[i] ?? []);
    assert.ok(own > 1 - 1e-4, `vector ${i}: cosine ${own}`);
    b.forEach((w, j) => {
      if (j !== i && cosine(v, w) < 1 - 1e-9) assert.ok(cosine(v, w) < own, `vector ${i} ~ ${j}`);
    });
  });
}

/** Texts of 1 to ~40 words, each different. */
function texts(n: number): string[] {
  const words = "the cat sat on a mat and looked at the bird in the old tree while rain fell".split(
    " ",
  );
  return Array.from({ length: n }, (_, i) =>
    Array.from({ length: 1 + ((i * 7) % 40) }, (_, j) => words[(i + j * 3) % words.length]).join(
      " ",
    ),
  );
}

describe("text embedder", { skip: skipUnlessProvided(addonMissing()) }, () => {
  let dir: string;
  let opened: OpenedLlama;
  let model: LlamaModel;
  let spec: LoadSpec;
  let batched: TextEmbedder;
  let single: TextEmbedder;
  let batchModel: NativeMtmdModel | undefined;
  const warnings: string[] = [];

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "text-embedder-test-"));
    spec = {
      modelPath: join(dir, "model.gguf"),
      contextSize: 256,
      sequences: 1,
      threads: 2,
      flashAttention: false,
      kvCacheType: "f16",
      gpuLayers: 0,
    };
    await writeDemoModel(spec.modelPath, TINY);
    opened = await openLlama("off", 2);
    model = await opened.llama.loadModel({ modelPath: spec.modelPath, gpuLayers: 0 });
    const tokenize = (text: string) => [...model.tokenize(text)];
    const load = TextEmbedder.addonLoader(spec, "cpu");
    batched = new TextEmbedder(model, spec, tokenize, async () => {
      batchModel = await load();
      return batchModel;
    });
    single = new TextEmbedder(model, spec, tokenize, () =>
      Promise.reject(new Error("not built here")),
    );
  });

  after(async () => {
    await batched?.dispose();
    await single?.dispose();
    await model?.dispose();
    await opened?.llama.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  it("gives node-llama-cpp's vectors for texts decoded together, and warns once where it cannot", async () => {
    const input = texts(5);
    const together = await batched.embed(input, false, never);
    const write = process.stderr.write;
    process.stderr.write = ((chunk: string | Uint8Array) => {
      warnings.push(String(chunk));
      return true;
    }) as typeof process.stderr.write;
    let oneByOne: Awaited<ReturnType<TextEmbedder["embed"]>>;
    try {
      oneByOne = await single.embed(input, false, never);
      await single.embed(["again"], false, never);
    } finally {
      process.stderr.write = write;
    }
    assertSameVectors(together.vectors, oneByOne.vectors);
    // A text decoded alone gets node-llama-cpp's vector exactly (the same settings).
    const alone = await batched.embed([input[2] ?? ""], false, never);
    assert.deepEqual(alone.vectors[0], oneByOne.vectors[2]);
    assert.equal(together.promptTokens, oneByOne.promptTokens);
    assert.ok(together.vectors.every((v) => v.length === TINY.embeddingLength));
    const said = warnings.filter((w) => /one text at a time/.test(w));
    assert.equal(said.length, 1, warnings.join(""));
    assert.match(said[0] ?? "", /not built here/);
    assert.ok(batchModel, "the batched embedder used the addon");
  });

  it("keeps order across several decodes: each vector as its text embedded alone", async () => {
    const input = texts(EMBED_SEQUENCES * 2 + 3);
    const together = await batched.embed(input, false, never);
    const alone: number[][] = [];
    for (const t of input) alone.push(...(await batched.embed([t], false, never)).vectors);
    assertSameVectors(together.vectors, alone);
    // Texts differ, so do their vectors: a mixed-up order would show.
    assert.notDeepEqual(together.vectors[0], together.vectors[1]);
  });

  it("leaves the same state when calls arrive at once", async () => {
    const input = texts(12);
    const sequential = [];
    for (let i = 0; i < 4; i++)
      sequential.push(await batched.embed(input.slice(i * 3, i * 3 + 3), false, never));
    const concurrent = await Promise.all(
      [0, 1, 2, 3].map((i) => batched.embed(input.slice(i * 3, i * 3 + 3), false, never)),
    );
    for (let i = 0; i < 4; i++) {
      assert.deepEqual(concurrent[i]?.vectors, sequential[i]?.vectors);
    }
  });

  it("refuses an over-long input unless truncating, and embeds an empty one", async () => {
    const long = Array.from({ length: 400 }, () => "cat").join(" ");
    await assert.rejects(batched.embed(["short", long], false, never), (e: unknown) => {
      assert.ok(e instanceof LlmsrvError);
      assert.equal(e.code, "bad_request");
      assert.match(e.message, /exceeds the context length/);
      return true;
    });
    const cut = await batched.embed([long, ""], true, never);
    assert.equal(cut.vectors.length, 2);
    assert.equal(cut.vectors[0]?.length, TINY.embeddingLength);
    assert.equal(cut.vectors[1]?.length, TINY.embeddingLength);
    // The truncated text counts the window less room for the beginning and end tokens;
    // the empty one its beginning token.
    assert.equal(cut.promptTokens, spec.contextSize - 3 + 1);
  });

  it("stops a canceled call and embeds correctly afterwards", async () => {
    const input = texts(20);
    const before = await batched.embed(input, false, never);
    const aborted = new AbortController();
    aborted.abort();
    await assert.rejects(batched.embed(input, false, aborted.signal), /request canceled/);
    // Native: an abort raised right after the call starts stops it. The call is long (50
    // decodes of whole windows): a short one can end on its worker thread before the test's
    // next statement runs on a loaded machine.
    const native = batchModel as NativeMtmdModel;
    const window = Int32Array.from(model.tokenize(texts(200).join(" "))).slice(
      0,
      spec.contextSize - 8,
    );
    const lists = Array.from({ length: 50 }, () => window);
    const call = native.embed(lists);
    native.abort(0);
    await assert.rejects(call, (e: unknown) => (e as { code?: string }).code === "ABORTED");
    const afterwards = await batched.embed(input, false, never);
    assert.deepEqual(afterwards.vectors, before.vectors);
  });

  it("answers BAD_INPUT natively for an empty or over-long token list", async () => {
    const native = batchModel as NativeMtmdModel;
    for (const list of [new Int32Array(0), new Int32Array(spec.contextSize + 1).fill(5)]) {
      await assert.rejects(native.embed([list]), (e: unknown) => {
        assert.equal((e as { code?: string }).code, "BAD_INPUT");
        assert.match(String((e as Error).message), /input 0 has \d+ tokens; 1 to 256 fit/);
        return true;
      });
    }
  });
});
