// Why GPU tests skip on this machine: no device node, or node-llama-cpp found no usable GPU.
import { existsSync, readdirSync } from "node:fs";
import type { GpuBackend } from "../src/runtime/gpu-backend.js";
import { ProcessRuntime } from "../src/runtime/process-runtime.js";

/** True when the machine has a GPU device node (NVIDIA's, or a DRM render node for Vulkan). */
function hasGpuDeviceNode(): boolean {
  try {
    if (existsSync("/dev/dri") || existsSync("/proc/driver/nvidia")) return true;
    return readdirSync("/dev").some((n) => /^nvidia\d+$/.test(n));
  } catch {
    return false;
  }
}

/**
 * Why these tests skip, or undefined on a GPU machine: the device nodes first (free), then
 * what a runner with LLMSRV_GPU=auto ends up on. A plain skip even under
 * QUINTET_REQUIRE_ALL=1: a GPU is never required.
 */
export async function gpuSkip(): Promise<string | undefined> {
  if (!hasGpuDeviceNode())
    return "no GPU on this machine (no /dev/nvidia* or /dev/dri): GPU offload is tested where one is";
  return (await gpuBackend()) === "cpu"
    ? "node-llama-cpp found no usable GPU (LLMSRV_GPU=auto chose the CPU build)"
    : undefined;
}

/** The GPU backend a runner with LLMSRV_GPU=auto gets (call only where gpuSkip() passed). */
export async function gpuBackend(): Promise<GpuBackend> {
  const runtime = new ProcessRuntime({ maxThreads: 1, gpu: "auto" });
  try {
    return await runtime.backend();
  } finally {
    await runtime.close();
  }
}
