/**
 * Entry point of a runner process: forked by `process-runtime.ts`, it loads one model with
 * node-llama-cpp (or, for a model with a projector, our mtmd addon) and serves the calls of
 * `runner-protocol.ts`. A native abort in llama.cpp ends this process only; the server
 * answers the calls in flight and loads the model again.
 * Synchronous native work (tokenizing a long prompt) blocks this process, not the server.
 */
import { GPU_MODES, type GpuMode } from "./gpu-backend.js";
import { LlamaRuntime } from "./llama-runtime.js";
import type { LoadedModel } from "./model-runner.js";
import { MtmdRuntime } from "./mtmd/mtmd-runtime.js";
import {
  LOAD_CALL_ID,
  type RunnerCall,
  type RunnerReply,
  type RunnerRequest,
  toWireError,
} from "./runner-protocol.js";
import { TextBatcher } from "./text-batcher.js";

/** Bytes free for the model, as the server measured them when it asked for the load. */
let availableMemory = 0;
/** argv: maxThreads, then LLMSRV_GPU's mode as the server read it. */
const gpuArg = process.argv[3] as GpuMode | undefined;
const runtime = new LlamaRuntime({
  maxThreads: Number(process.argv[2]) || 1,
  availableMemory: () => availableMemory,
  gpu: gpuArg && GPU_MODES.includes(gpuArg) ? gpuArg : "off",
});
let mtmdRuntime: MtmdRuntime | undefined;
/**
 * A model with a projector runs on our mtmd addon instead (images and audio), linked to
 * the same prebuilt variant (cpu, cuda, vulkan) node-llama-cpp chose in this process.
 */
async function mtmd(): Promise<MtmdRuntime> {
  if (!mtmdRuntime) {
    const report = await runtime.backendReport();
    mtmdRuntime = new MtmdRuntime({
      maxThreads: Number(process.argv[2]) || 1,
      availableMemory: () => availableMemory,
      variant: "backend" in report ? report.backend : "cpu",
    });
  }
  return mtmdRuntime;
}
// A runner is started ahead of need: loading the native library takes most of a second.
// Then it tells the server which backend it got (the server's GPU detection).
void runtime.backendReport().then((report) => reply({ type: "backend", report }));
let model: LoadedModel | undefined;
const controllers = new Map<number, AbortController>();

function reply(msg: RunnerReply): void {
  process.send?.(msg);
}

async function load(msg: Extract<RunnerRequest, { type: "load" }>): Promise<void> {
  try {
    availableMemory = msg.availableMemory;
    model = await (msg.spec.projectorPath ? await mtmd() : runtime).load(msg.spec);
    reply({ type: "loaded", sizeBytes: model.sizeBytes, vramBytes: model.vramBytes ?? 0 });
  } catch (e) {
    reply({ type: "failed", id: LOAD_CALL_ID, error: toWireError(e) });
  }
}

/** Runs one call against the loaded model; a completion's text goes to `onText`. */
async function call(
  m: LoadedModel,
  msg: RunnerCall,
  signal: AbortSignal,
  onText: (text: string) => void,
): Promise<unknown> {
  switch (msg.type) {
    case "complete":
      return m.complete(msg.slot, msg.req, onText, signal);
    case "embed":
      return m.embed(msg.texts, msg.truncate, signal);
    case "tokenize":
      return m.tokenize(msg.text);
    case "detokenize":
      return m.detokenize(msg.tokens);
    case "ping":
      return null;
  }
}

async function serve(msg: RunnerCall): Promise<void> {
  const controller = new AbortController();
  controllers.set(msg.id, controller);
  const text = new TextBatcher((t) => reply({ type: "text", id: msg.id, text: t }));
  try {
    if (!model) throw new Error("no model loaded");
    const value = await call(model, msg, controller.signal, (t) => text.push(t));
    text.flush();
    reply({ type: "done", id: msg.id, value });
  } catch (e) {
    text.flush();
    reply({ type: "failed", id: msg.id, error: toWireError(e) });
  } finally {
    controllers.delete(msg.id);
  }
}

/** Releases the model and leaves; the server kills this process if that takes too long. */
async function unload(): Promise<void> {
  for (const c of controllers.values()) c.abort();
  await model?.unload().catch(() => {});
  await runtime.close().catch(() => {});
  await mtmdRuntime?.close().catch(() => {});
  process.exit(0);
}

process.on("message", (msg: RunnerRequest) => {
  if (msg.type === "load") void load(msg);
  else if (msg.type === "unload") void unload();
  else if (msg.type === "abort") controllers.get(msg.id)?.abort();
  else void serve(msg);
});
// The server is gone (even killed with SIGKILL): nobody can use this model any more.
process.on("disconnect", () => process.exit(0));
