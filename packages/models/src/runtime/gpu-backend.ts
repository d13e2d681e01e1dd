// GPU selection: LLMSRV_GPU's modes, the backends a runner may end up on, and what follows.
import { GPU_MODES, type GpuMode } from "../config.js";
import type { Env } from "../config-env.js";

// LLMSRV_GPU's values are read by the configuration (the lowest layer); named here too.
export { GPU_MODES, type GpuMode };

/** Which of node-llama-cpp's prebuilt variants a runner loaded. */
export type GpuBackend = "cpu" | "cuda" | "vulkan";

/** A GPU API node-llama-cpp can be asked for. */
export type GpuApi = "cuda" | "vulkan";

/** node-llama-cpp's `gpu` option: a fixed variant, or the best one available less some. */
export type LlamaGpuRequest = false | GpuApi | { type: "auto"; exclude: GpuApi[] };

/**
 * True when a device-list variable hides every device: set to the empty string or -1, the
 * values Ollama's users set to keep the GPUs out (CUDA_VISIBLE_DEVICES=-1 forces the CPU).
 */
export function hidesAllDevices(value: string | undefined): boolean {
  if (value === undefined) return false;
  const v = value.trim();
  return v === "" || v === "-1";
}

/**
 * The `gpu` option given to node-llama-cpp for a mode. In `auto`, CUDA is left out when
 * CUDA_VISIBLE_DEVICES hides every device, and then Vulkan too (on an NVIDIA machine it
 * would reach the very GPU the user hid); GGML_VK_VISIBLE_DEVICES hides Vulkan alone.
 * An explicit `cuda` or `vulkan` is taken as asked.
 */
export function llamaGpuRequest(mode: GpuMode, env: Env = process.env): LlamaGpuRequest {
  if (mode === "off") return false;
  if (mode !== "auto") return mode;
  const cudaHidden = hidesAllDevices(env.CUDA_VISIBLE_DEVICES);
  if (cudaHidden) return false;
  const exclude: GpuApi[] = [];
  if (hidesAllDevices(env.GGML_VK_VISIBLE_DEVICES)) exclude.push("vulkan");
  return { type: "auto", exclude };
}

/** The backend of node-llama-cpp's `llama.gpu` (false: the CPU build). */
export function backendOf(gpu: string | false): GpuBackend {
  return gpu === "cuda" || gpu === "vulkan" ? gpu : "cpu";
}

/** True for a backend that offloads layers to a GPU. */
export function isGpuBackend(backend: GpuBackend): boolean {
  return backend !== "cpu";
}

/** The spec's LLMSRV_MAX_LOADED_MODELS default: 1 on the CPU, 3 with a GPU. */
export function defaultMaxLoadedModels(backend: GpuBackend): number {
  return isGpuBackend(backend) ? 3 : 1;
}

/** What a runner reports once node-llama-cpp is loaded: its backend and GPU devices. */
export type BackendReport =
  | { backend: GpuBackend; devices: string[]; vramTotal: number }
  | { error: string };
