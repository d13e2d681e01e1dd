// Opens node-llama-cpp's native library for a GPU mode and records which variant it chose.
import { getLlama, type Llama } from "node-llama-cpp";
import { messageOf } from "../errors.js";
import { backendOf, type GpuBackend, type GpuMode, llamaGpuRequest } from "./gpu-backend.js";
import { llamaLogLine } from "./llama-log.js";

/** node-llama-cpp's library as opened, with the backend it runs on and that backend's GPUs. */
export interface OpenedLlama {
  llama: Llama;
  backend: GpuBackend;
  /** GPU device names (empty on the CPU). */
  devices: string[];
  /** Bytes of GPU memory over those devices (0 on the CPU). */
  vramTotal: number;
}

/** The backend this process's library runs on, once one was opened. */
let chosen: GpuBackend | undefined;

/**
 * The variant ("cpu" | "cuda" | "vulkan") of node-llama-cpp's prebuilt binaries that this
 * process loaded, undefined until `openLlama` has finished. Native code linked against
 * those binaries (the mtmd addon) must use the same variant's libraries.
 */
export function chosenGpuBackend(): GpuBackend | undefined {
  return chosen;
}

function open(gpu: ReturnType<typeof llamaGpuRequest>, maxThreads: number): Promise<Llama> {
  return getLlama({
    build: "never",
    gpu,
    skipDownload: true,
    usePrebuiltBinaries: true,
    // No progress lines: a variant that cannot run here is passed over quietly in `auto`.
    progressLogs: false,
    logLevel: "warn" as never,
    // Tagged with their level, so the server logs them in its format (llama-log.ts).
    logger: (level, message) => process.stderr.write(llamaLogLine(level, message)),
    maxThreads,
  });
}

/**
 * Opens the library: prebuilt binaries only, never a build or a download. In `auto`,
 * node-llama-cpp tries CUDA, then Vulkan, then the CPU, testing each variant in a child
 * process first; a GPU variant that loads but sees no device (a Vulkan loader without a
 * GPU) is dropped for the CPU build. An explicit `cuda` or `vulkan` that cannot run fails
 * with a message naming LLMSRV_GPU.
 */
export async function openLlama(mode: GpuMode, maxThreads: number): Promise<OpenedLlama> {
  const request = llamaGpuRequest(mode);
  let llama: Llama;
  try {
    llama = await open(request, maxThreads);
  } catch (e) {
    if (mode === "cuda" || mode === "vulkan")
      throw new Error(
        `LLMSRV_GPU=${mode}: node-llama-cpp's ${mode} build cannot run on this machine (${messageOf(e)})`,
      );
    throw e;
  }
  let backend = backendOf(llama.gpu);
  let devices = backend === "cpu" ? [] : await llama.getGpuDeviceNames();
  if (backend !== "cpu" && devices.length === 0) {
    if (mode !== "auto") {
      await llama.dispose();
      throw new Error(`LLMSRV_GPU=${mode}: node-llama-cpp's ${mode} build found no GPU device`);
    }
    await llama.dispose();
    llama = await open(false, maxThreads);
    backend = "cpu";
    devices = [];
  }
  const vramTotal = backend === "cpu" ? 0 : (await llama.getVramState()).total;
  chosen = backend;
  return { llama, backend, devices, vramTotal };
}
