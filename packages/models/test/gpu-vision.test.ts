// Images on a real GPU: the mtmd addon's GPU variant offloads the model and its projector.
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { DEMO_MODEL_SHAPE, writeDemoModel } from "../src/demo/demo-model.js";
import {
  DEMO_PROJECTOR_SHAPE,
  demoImageTokens,
  writeDemoProjector,
} from "../src/demo/demo-projector.js";
import type { GpuBackend } from "../src/runtime/gpu-backend.js";
import type { CompletionRequest, LoadSpec } from "../src/runtime/model-runner.js";
import { type MtmdLoadedModel, MtmdRuntime } from "../src/runtime/mtmd/mtmd-runtime.js";
import { encodeBlockJpeg, encodePng, rgbImage } from "../src/runtime/mtmd/test-images.js";
import { greedySampling } from "../src/runtime/mtmd/test-support.js";
import { gpuBackend, gpuSkip } from "./gpu-skip.js";

const SKIP = await gpuSkip();
const PNG = encodePng(rgbImage(32, 32, (x, y) => [x * 8, y * 8, 128]));
const JPEG = encodeBlockJpeg(rgbImage(48, 40, (x, y) => [255 - x * 5, 40, y * 6]));

function request(prompt: string, media: Uint8Array[]): CompletionRequest {
  return {
    prompt,
    media,
    sampling: greedySampling(8),
  };
}

describe("images on a real GPU (mtmd addon)", { skip: SKIP, timeout: 300_000 }, () => {
  let dir: string;
  let spec: LoadSpec;
  let backend: GpuBackend;
  const never = new AbortController().signal;

  before(async () => {
    backend = await gpuBackend();
    dir = await mkdtemp(join(tmpdir(), "gpu-vision-test-"));
    spec = {
      modelPath: join(dir, "model.gguf"),
      projectorPath: join(dir, "projector.gguf"),
      contextSize: 256,
      sequences: 2,
      threads: 2,
      flashAttention: false,
      kvCacheType: "f16",
    };
    await writeDemoModel(spec.modelPath);
    await writeDemoProjector(spec.projectorPath as string, {
      outputLength: DEMO_MODEL_SHAPE.embeddingLength,
    });
  });
  after(() => rm(dir, { recursive: true, force: true }));

  /** Loads with `gpuLayers` on the machine's GPU variant, answers about both images, unloads. */
  async function answer(gpuLayers: number | undefined) {
    const runtime = new MtmdRuntime({ maxThreads: 2, variant: backend as "cuda" | "vulkan" });
    const model = (await runtime.load({ ...spec, gpuLayers })) as MtmdLoadedModel;
    try {
      const r = await model.complete(
        0,
        request("[img-0] and [img-1]?", [PNG, JPEG]),
        () => {},
        never,
      );
      return { vram: model.vramBytes, size: model.sizeBytes, result: r };
    } finally {
      await model.unload();
      await runtime.close();
    }
  }

  it("offloads every layer by default and counts the images' tokens", async () => {
    const { vram, size, result } = await answer(undefined);
    assert.ok(vram > 0, `vramBytes ${vram}`);
    assert.ok(size >= vram);
    const images = 2 * demoImageTokens(DEMO_PROJECTOR_SHAPE);
    assert.equal(result.promptEvalCount, result.promptTokens.length + 1 + images);
    assert.ok(result.evalCount > 0);
  });

  it("keeps the model in host memory with num_gpu 0 and evaluates the same tokens", async () => {
    const gpu = await answer(undefined);
    const cpu = await answer(0);
    assert.equal(cpu.vram, 0);
    assert.equal(cpu.result.promptEvalCount, gpu.result.promptEvalCount);
    assert.ok(cpu.result.evalCount > 0);
  });
});
