// Prints which node-llama-cpp build a runner gets for an LLMSRV_GPU mode (gpu-check.sh's probe).
// Usage: node packages/models/scripts/print-backend.mjs auto|cuda|vulkan|off  (after a build)
// A file, not `node -e`: node-llama-cpp tests each build in a child forked with this
// process's flags, and a forked `-e` would run the eval text again instead of the test.
const mode = process.argv[2] ?? "auto";
const { openLlama } = await import("../dist/src/runtime/llama-backend.js");
const started = performance.now();
try {
  const { llama, backend, devices, vramTotal } = await openLlama(mode, 4);
  const vram = await llama.getVramState();
  const ms = Math.round(performance.now() - started);
  console.log(
    `LLMSRV_GPU=${mode}:`,
    JSON.stringify({ backend, devices, vramTotal, vramFree: vram.free, ms }),
  );
  await llama.dispose();
} catch (e) {
  console.log(`LLMSRV_GPU=${mode}: error: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
}
