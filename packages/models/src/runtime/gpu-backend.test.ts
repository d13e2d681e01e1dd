// Tests of GPU selection: LLMSRV_GPU's modes as node-llama-cpp options, hidden devices, defaults.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  backendOf,
  defaultMaxLoadedModels,
  hidesAllDevices,
  llamaGpuRequest,
} from "./gpu-backend.js";

describe("GPU selection", () => {
  it("asks node-llama-cpp for the best variant in auto, a fixed one otherwise", () => {
    assert.deepEqual(llamaGpuRequest("auto", {}), { type: "auto", exclude: [] });
    assert.equal(llamaGpuRequest("cuda", {}), "cuda");
    assert.equal(llamaGpuRequest("vulkan", {}), "vulkan");
    assert.equal(llamaGpuRequest("off", {}), false);
  });

  it("runs on the CPU in auto when CUDA_VISIBLE_DEVICES hides every GPU, as Ollama users expect", () => {
    for (const hidden of ["", "-1", " -1 "])
      assert.equal(llamaGpuRequest("auto", { CUDA_VISIBLE_DEVICES: hidden }), false, hidden);
    assert.deepEqual(llamaGpuRequest("auto", { CUDA_VISIBLE_DEVICES: "0" }), {
      type: "auto",
      exclude: [],
    });
    // An explicit choice is taken as asked.
    assert.equal(llamaGpuRequest("cuda", { CUDA_VISIBLE_DEVICES: "-1" }), "cuda");
  });

  it("leaves Vulkan out in auto when GGML_VK_VISIBLE_DEVICES hides every device", () => {
    assert.deepEqual(llamaGpuRequest("auto", { GGML_VK_VISIBLE_DEVICES: "-1" }), {
      type: "auto",
      exclude: ["vulkan"],
    });
  });

  it("reads device lists: only empty or -1 hides everything", () => {
    assert.deepEqual([undefined, "", "-1", "0", "0,1", "GPU-abc"].map(hidesAllDevices), [
      false,
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  it("names node-llama-cpp's variants as backends", () => {
    assert.deepEqual(
      [false, "cuda", "vulkan", "metal"].map((g) => backendOf(g as string | false)),
      ["cpu", "cuda", "vulkan", "cpu"],
    );
  });

  it("defaults to one loaded model on the CPU and three with a GPU (the spec's numbers)", () => {
    assert.deepEqual((["cpu", "cuda", "vulkan"] as const).map(defaultMaxLoadedModels), [1, 3, 3]);
  });
});
