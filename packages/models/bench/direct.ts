import { getLlama, LlamaCompletion } from "node-llama-cpp";

/** One timed generation. */
export interface Sample {
  /** Milliseconds from the request to the first generated token. */
  ttftMs: number;
  /** Decode speed: tokens after the first, per second of time after the first. */
  decodeTps: number;
  tokens: number;
}

/** Computes a sample from timestamps (ms) of the start and of every token. */
export function sampleFrom(start: number, tokenTimes: number[]): Sample {
  const first = tokenTimes[0] ?? start;
  const last = tokenTimes.at(-1) ?? first;
  const n = tokenTimes.length;
  return {
    ttftMs: first - start,
    decodeTps: n > 1 ? ((n - 1) * 1000) / (last - first) : 0,
    tokens: n,
  };
}

/** node-llama-cpp called directly: the baseline the HTTP path is compared with. */
export async function openDirect(modelPath: string, threads: number, contextSize: number) {
  const llama = await getLlama({
    build: "never",
    gpu: false,
    skipDownload: true,
    progressLogs: false,
    logLevel: "error" as never,
    maxThreads: threads,
  });
  const model = await llama.loadModel({ modelPath, gpuLayers: 0 });
  const context = await model.createContext({
    contextSize,
    threads: { ideal: threads, min: 1 },
    sequences: 1,
  });
  const completion = new LlamaCompletion({ contextSequence: context.getSequence() });
  return {
    async run(prompt: string, tokens: number): Promise<Sample> {
      const times: number[] = [];
      const start = performance.now();
      await completion.generateCompletion(model.tokenize(prompt, true), {
        maxTokens: tokens,
        temperature: 0,
        disableContextShift: true,
        // Text streaming, as a direct caller that shows output would do (the server does the same).
        onTextChunk: () => {
          times.push(performance.now());
        },
      });
      return sampleFrom(start, times);
    },
    async close() {
      completion.dispose({ disposeSequence: true });
      await context.dispose();
      await model.dispose();
      await llama.dispose();
    },
  };
}
