/**
 * Child process of `trialLoad`: loads one GGUF with node-llama-cpp (weights memory-mapped,
 * no context) and reports to the parent whether llama.cpp accepted it. A native abort
 * inside llama.cpp ends only this process; the parent reports the signal.
 */
import { getLlama, type LlamaLogLevel } from "node-llama-cpp";

/** What the child sends its parent over IPC. */
export interface TrialLoadReport {
  ok: boolean;
  /** llama.cpp's own error lines (or the thrown message) when loading failed. */
  reason?: string;
}

async function main(modelPath: string): Promise<TrialLoadReport> {
  const errors: string[] = [];
  const llama = await getLlama({
    build: "never",
    gpu: false,
    skipDownload: true,
    usePrebuiltBinaries: true,
    progressLogs: false,
    maxThreads: 1,
    logLevel: "warn" as LlamaLogLevel,
    logger: (level, message) => {
      if (level === "error" || level === "fatal") errors.push(message.trim());
    },
  });
  try {
    const model = await llama.loadModel({
      modelPath,
      gpuLayers: 0,
      useMmap: true,
      ignoreMemorySafetyChecks: true,
    });
    await model.dispose();
    return { ok: true };
  } catch (e) {
    const thrown = e instanceof Error ? e.message : String(e);
    const lines = [...new Set(errors.map((l) => l.replace(/^llama_model_load: /, "")))].filter(
      (l) => l !== "" && !/failed to load model$/.test(l),
    );
    return { ok: false, reason: lines.length > 0 ? lines.join("; ") : thrown };
  } finally {
    await llama.dispose().catch(() => {});
  }
}

const path = process.argv[2];
if (!path || !process.send) process.exit(2);
main(path).then(
  (report) => process.send?.(report, () => process.exit(0)),
  (e: unknown) =>
    process.send?.({ ok: false, reason: e instanceof Error ? e.message : String(e) }, () =>
      process.exit(0),
    ),
);
