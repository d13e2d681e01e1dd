import type { GpuMode } from "../src/runtime/gpu-backend.js";
import { openDirect } from "./direct.js";

/**
 * Child process that runs the direct node-llama-cpp baseline on request, so that the
 * benchmark's HTTP client lives in a process without a loaded model, as a real client does.
 * argv: modelPath threads contextSize gpu. Messages in: {prompt, tokens} | "close"; out: first
 * where it runs (DirectBackend), then a Sample per run.
 */
const [modelPath, threads, contextSize, gpu] = process.argv.slice(2);
const direct = await openDirect(
  modelPath ?? "",
  Number(threads),
  Number(contextSize),
  (gpu ?? "off") as GpuMode,
);
process.on("message", async (msg: { prompt: string; tokens: number } | "close") => {
  if (msg === "close") {
    await direct.close();
    process.disconnect();
    return;
  }
  process.send?.(await direct.run(msg.prompt, msg.tokens));
});
process.send?.(direct.where);
