import { getLlama, LlamaCompletion } from "node-llama-cpp";
import { physicalCoreCount } from "../src/config.js";
import { backendOf, type GpuMode, llamaGpuRequest } from "../src/runtime/gpu-backend.js";

/** One timed generation. */
export interface Sample {
  /** Milliseconds from the request to the first generated token. */
  ttftMs: number;
  /** Decode speed: tokens after the first, per second of time after the first. */
  decodeTps: number;
  tokens: number;
}

/**
 * Computes a sample from the start time, the arrival times (ms) of the streamed text
 * pieces, and the number of tokens generated (one piece may carry several tokens).
 */
export function sampleFrom(start: number, pieceTimes: number[], tokens: number): Sample {
  const first = pieceTimes[0] ?? start;
  const last = pieceTimes.at(-1) ?? first;
  const decodeTps = tokens > 1 && last > first ? ((tokens - 1) * 1000) / (last - first) : 0;
  return { ttftMs: first - start, decodeTps, tokens };
}

/** Where the direct path ran: node-llama-cpp's variant and its GPUs. */
export interface DirectBackend {
  backend: string;
  devices: string[];
}

/**
 * node-llama-cpp called directly: the baseline the HTTP path is compared with. On a GPU
 * (BENCH_GPU) every layer is offloaded, as the server does by default for a model that fits.
 */
export async function openDirect(
  modelPath: string,
  threads: number,
  contextSize: number,
  gpu: GpuMode = "off",
) {
  const llama = await getLlama({
    build: "never",
    gpu: llamaGpuRequest(gpu),
    skipDownload: true,
    progressLogs: false,
    logLevel: "error" as never,
    maxThreads: physicalCoreCount(), // as the server's runtime does; the context below uses `threads`
  });
  const backend = backendOf(llama.gpu);
  const model = await llama.loadModel({ modelPath, gpuLayers: backend === "cpu" ? 0 : "max" });
  const where: DirectBackend = {
    backend,
    devices: backend === "cpu" ? [] : await llama.getGpuDeviceNames(),
  };
  const context = await model.createContext({
    contextSize,
    threads: { ideal: threads, min: 1 },
    sequences: 1,
    // The server's defaults (LLMSRV_FLASH_ATTENTION off, f16 KV cache), so both paths run the same kernels.
    flashAttention: false,
  });
  const completion = new LlamaCompletion({ contextSequence: context.getSequence() });
  return {
    where,
    async run(prompt: string, tokens: number): Promise<Sample> {
      const times: number[] = [];
      let tokenCount = 0;
      const start = performance.now();
      await completion.generateCompletion(model.tokenize(prompt, true), {
        maxTokens: tokens,
        temperature: 0,
        repeatPenalty: false, // the server's default repeat_penalty 1.0 turns penalties off
        disableContextShift: true,
        // Text streaming, as a direct caller that shows output would do (the server does the same).
        onTextChunk: () => {
          times.push(performance.now());
        },
        onToken: (t) => {
          tokenCount += t.length;
        },
      });
      return sampleFrom(start, times, tokenCount);
    },
    async close() {
      completion.dispose({ disposeSequence: true });
      await context.dispose();
      await model.dispose();
      await llama.dispose();
    },
  };
}

/** The direct baseline in its own process (see direct-worker.ts). */
export async function spawnDirect(
  workerJs: string,
  modelPath: string,
  threads: number,
  contextSize: number,
  gpu: GpuMode = "off",
) {
  const { fork } = await import("node:child_process");
  const child = fork(workerJs, [modelPath, String(threads), String(contextSize), gpu], {
    stdio: "inherit",
  });
  const next = () =>
    new Promise<unknown>((resolve, reject) => {
      const onExit = (code: number | null) =>
        reject(new Error(`direct worker exited with ${code}`));
      child.once("exit", onExit);
      child.once("message", (msg) => {
        child.off("exit", onExit);
        resolve(msg);
      });
    });
  const where = (await next()) as DirectBackend; // ready
  return {
    where,
    async run(prompt: string, tokens: number): Promise<Sample> {
      const reply = next();
      child.send({ prompt, tokens });
      return (await reply) as Sample;
    },
    async close(): Promise<void> {
      const exited = new Promise((r) => child.once("exit", r));
      child.send("close");
      await exited;
    },
  };
}
