// The multimodal runtime on a generated model and projector: images decoded, counted, answered.
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { skipUnlessProvided } from "@quintet/kit/testing";
import { writeDemoModel } from "../../demo/demo-model.js";
import {
  DEMO_PROJECTOR_SHAPE,
  demoImageTokens,
  writeDemoProjector,
} from "../../demo/demo-projector.js";
import { LlmsrvError, messageOf } from "../../errors.js";
import type { CompletionRequest, LoadSpec, SamplingOptions } from "../model-runner.js";
import { type MtmdLoadedModel, MtmdRuntime } from "./mtmd-runtime.js";
import { encodeBlockJpeg, encodePng, rgbImage } from "./test-images.js";
import { addonMissing, greedySampling } from "./test-support.js";

const TINY = { embeddingLength: 64, headCount: 4, headCountKv: 2, feedForwardLength: 128 };
const IMAGE_TOKENS = demoImageTokens(DEMO_PROJECTOR_SHAPE);

const GREEDY: SamplingOptions = greedySampling(8);

const PNG = encodePng(rgbImage(32, 32, (x, y) => [x * 8, y * 8, 128]));
const JPEG = encodeBlockJpeg(rgbImage(48, 40, (x, y) => [255 - x * 5, 40, y * 6]));

function request(prompt: string, media: Uint8Array[], sampling: Partial<SamplingOptions> = {}) {
  return { prompt, media, sampling: { ...GREEDY, ...sampling } } satisfies CompletionRequest;
}

async function rejectsWith(p: Promise<unknown>, code: string, message: RegExp): Promise<void> {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof LlmsrvError, `not an LlmsrvError: ${messageOf(e)}`);
    assert.equal(e.code, code, e.message);
    assert.match(e.message, message);
    return true;
  });
}

describe("mtmd runtime", { skip: skipUnlessProvided(addonMissing()) }, () => {
  let dir: string;
  let spec: LoadSpec;
  let model: MtmdLoadedModel;
  const runtime = new MtmdRuntime({ maxThreads: 2 });
  const never = new AbortController().signal;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "mtmd-runtime-test-"));
    spec = {
      modelPath: join(dir, "model.gguf"),
      projectorPath: join(dir, "projector.gguf"),
      contextSize: 256,
      sequences: 2,
      threads: 2,
      flashAttention: false,
      kvCacheType: "f16",
      gpuLayers: 0,
    };
    await writeDemoModel(spec.modelPath, TINY);
    await writeDemoProjector(spec.projectorPath as string, { outputLength: TINY.embeddingLength });
    model = (await runtime.load(spec)) as MtmdLoadedModel;
  });

  after(async () => {
    await model?.unload();
    await rm(dir, { recursive: true, force: true });
  });

  it("loads the generated projector with the demo model: vision, no audio, sizes", () => {
    assert.equal(model.info.vision, true);
    assert.equal(model.info.audio, false);
    assert.ok(model.sizeBytes > 0);
    assert.equal(model.vramBytes, 0);
  });

  it("counts a PNG's and a JPEG's tokens in promptEvalCount and answers deterministically", async () => {
    const text = await model.complete(0, request("Describe this.", []), () => {}, never);
    assert.equal(text.promptEvalCount, text.promptTokens.length + 1);
    for (const image of [PNG, JPEG]) {
      const streamed: string[] = [];
      const a = await model.complete(
        0,
        request("Describe [img-0] this.", [image]),
        (t) => streamed.push(t),
        never,
      );
      assert.equal(a.promptEvalCount, a.promptTokens.length + 1 + IMAGE_TOKENS);
      assert.ok(a.evalCount > 0);
      assert.equal(streamed.join(""), a.text);
      const b = await model.complete(
        1,
        request("Describe [img-0] this.", [image]),
        () => {},
        never,
      );
      assert.equal(b.text, a.text);
      assert.deepEqual(b.outputTokens, a.outputTokens);
    }
    const both = await model.complete(
      0,
      request("[img-0] and [img-1]", [PNG, JPEG]),
      () => {},
      never,
    );
    assert.equal(both.promptEvalCount, both.promptTokens.length + 1 + 2 * IMAGE_TOKENS);
  });

  it("gives two different images different first logits", async () => {
    const logitsFor = async (image: Uint8Array) => {
      await model.complete(
        0,
        request("What is [img-0]?", [image], { numPredict: 1 }),
        () => {},
        never,
      );
      return model.native.logits(0);
    };
    const a = await logitsFor(PNG);
    const b = await logitsFor(JPEG);
    assert.equal(a.length, b.length);
    assert.ok(
      a.some((v, i) => v !== b[i]),
      "the logits do not depend on the image",
    );
  });

  it("refuses undecodable bytes with a bad_request naming the image", async () => {
    const corrupt = Buffer.from("this is not an image at all");
    await rejectsWith(
      model.complete(0, request("See [img-0]", [corrupt]), () => {}, never),
      "bad_request",
      /image 0 \(27 bytes\) is not an image or audio clip/,
    );
    const truncated = PNG.subarray(0, 40);
    await rejectsWith(
      model.complete(0, request("[img-0] [img-1]", [PNG, truncated]), () => {}, never),
      "bad_request",
      /image 1 /,
    );
  });

  it("refuses a tag naming an image the request does not have", async () => {
    await rejectsWith(
      model.complete(0, request("Look at [img-5]", [PNG]), () => {}, never),
      "bad_request",
      /\[img-5\] refers to image 5, but the request has 1 image/,
    );
  });

  it("constrains output to JSON with format json", async () => {
    const r = await model.complete(
      0,
      {
        ...request("Answer in JSON about [img-0]", [PNG], { numPredict: 12 }),
        format: { kind: "json" },
      },
      () => {},
      never,
    );
    assert.match(r.text, /^\{/);
  });

  it("stops generating when aborted", async () => {
    const controller = new AbortController();
    const r = await model.complete(
      0,
      request("Tell a long story about [img-0]", [PNG], { numPredict: undefined }),
      () => controller.abort(),
      controller.signal,
    );
    assert.equal(r.aborted, true);
    assert.ok(r.evalCount < spec.contextSize - r.promptEvalCount, `generated ${r.evalCount}`);
  });

  it("refuses more image tokens than the context holds, naming the numbers", async () => {
    const small = await runtime.load({ ...spec, contextSize: 24, sequences: 1 });
    try {
      await rejectsWith(
        small.complete(0, request("[img-0] [img-1]", [PNG, JPEG]), () => {}, never),
        "bad_request",
        new RegExp(`take ${2 * IMAGE_TOKENS} tokens, more than the context window of 24 tokens`),
      );
    } finally {
      await small.unload();
    }
  });

  it("answers embeddings with unsupported_capability", async () => {
    await rejectsWith(model.embed(["x"], true, never), "unsupported_capability", /projector/);
  });

  it("fails to load a projector whose width differs from the model's, naming both", async () => {
    const narrow = join(dir, "narrow.gguf");
    await writeDemoProjector(narrow, { outputLength: 32 });
    await rejectsWith(
      runtime.load({ ...spec, projectorPath: narrow, sequences: 1 }),
      "model_load_failed",
      /mismatch between text model \(n_embd = 64\) and mmproj \(n_embd = 32\)/,
    );
  });
});
