// The GPU paths of the HTTP API and CLI on a CPU machine: a runtime that claims a GPU, real runners behind it.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { GpuBackend } from "../src/runtime/gpu-backend.js";
import type { LoadedModel, LoadSpec, ModelRuntime } from "../src/runtime/model-runner.js";
import { ProcessRuntime } from "../src/runtime/process-runtime.js";
import { cli } from "./cli-run.js";
import { createTinyModel, postJson, startTestServer, type TestServer } from "./harness.js";

/**
 * The real runtime (CPU runners) presented as a CUDA one: a model loaded with all layers
 * reports its whole size in VRAM, one with n layers half of it, one with 0 none; this is
 * how the scheduler, `/api/ps` and `llmsrv ps` see what a GPU runner reports.
 */
class ClaimedGpuRuntime implements ModelRuntime {
  readonly loads: LoadSpec[] = [];
  private readonly inner = new ProcessRuntime({ maxThreads: 1 });

  async backend(): Promise<GpuBackend> {
    return "cuda";
  }

  async load(spec: LoadSpec, signal?: AbortSignal): Promise<LoadedModel> {
    this.loads.push(spec);
    const m = await this.inner.load(spec, signal);
    const layers = spec.gpuLayers;
    const vramBytes =
      layers === undefined ? m.sizeBytes : layers === 0 ? 0 : Math.round(m.sizeBytes / 2);
    return {
      spec: m.spec,
      sizeBytes: m.sizeBytes,
      vramBytes,
      lost: m.lost,
      pid: m.pid,
      complete: (slot, req, onText, s) => m.complete(slot, req, onText, s),
      embed: (texts, truncate, s) => m.embed(texts, truncate, s),
      tokenize: (text) => m.tokenize(text),
      detokenize: (tokens) => m.detokenize(tokens),
      unload: () => m.unload(),
    };
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

interface PsModel {
  name: string;
  size: number;
  size_vram: number;
}

async function ps(url: string): Promise<PsModel[]> {
  return ((await (await fetch(`${url}/api/ps`)).json()) as { models: PsModel[] }).models;
}

describe("GPU offload as the API and CLI show it", { timeout: 240_000 }, () => {
  let server: TestServer;
  const runtime = new ClaimedGpuRuntime();
  let env: Record<string, string>;
  const generate = (options: Record<string, unknown>, model = "demo") =>
    postJson(`${server.url}/api/generate`, {
      model,
      prompt: "x",
      stream: false,
      options: { num_predict: 1, ...options },
    });

  before(async () => {
    server = await startTestServer({}, { ensureDemo: true, runtime });
    env = { LLMSRV_HOST: server.url };
  });
  after(() => server.stop());

  it("passes size_vram through to /api/ps; ps says 100% GPU for a wholly offloaded model", async () => {
    assert.equal((await generate({})).status, 200);
    const [m] = await ps(server.url);
    assert.ok(m && m.size > 0);
    assert.equal(m.size_vram, m.size);
    assert.match((await cli(["ps"], env)).stdout, /demo:latest.*\s100% GPU\s/);
    assert.equal(runtime.loads.at(-1)?.gpuLayers, undefined, "all that fit by default");
  });

  it("num_gpu n reloads with n layers; ps shows the split", async () => {
    const before = runtime.loads.length;
    assert.equal((await generate({ num_gpu: 1 })).status, 200);
    assert.equal(runtime.loads.length, before + 1);
    assert.equal(runtime.loads.at(-1)?.gpuLayers, 1);
    const [m] = await ps(server.url);
    assert.equal(m?.size_vram, Math.round((m?.size ?? 0) / 2));
    assert.match((await cli(["ps"], env)).stdout, /demo:latest.*\s50%\/50% CPU\/GPU\s/);
  });

  it("num_gpu -1 keeps the loaded model, whatever its layers", async () => {
    const before = runtime.loads.length;
    assert.equal((await generate({ num_gpu: -1 })).status, 200);
    assert.equal((await generate({})).status, 200);
    assert.equal(runtime.loads.length, before);
  });

  it("num_gpu 0 reloads on the CPU: size_vram 0, ps says 100% CPU", async () => {
    assert.equal((await generate({ num_gpu: 0 })).status, 200);
    assert.equal(runtime.loads.at(-1)?.gpuLayers, 0);
    assert.equal((await ps(server.url))[0]?.size_vram, 0);
    assert.match((await cli(["ps"], env)).stdout, /demo:latest.*\s100% CPU\s/);
  });

  it("refuses a num_gpu that is not an integer, naming it", async () => {
    const r = await generate({ num_gpu: "all" });
    assert.equal(r.status, 400);
    assert.match((r.body as { error: string }).error, /option "num_gpu" must be of type integer/);
  });

  it("keeps three models loaded by default with a GPU", async () => {
    await createTinyModel(server.url, "tiny-a", 3);
    await createTinyModel(server.url, "tiny-b", 4);
    for (const model of ["demo", "tiny-a", "tiny-b"])
      assert.equal((await generate({}, model)).status, 200, model);
    assert.deepEqual((await ps(server.url)).map((m) => m.name).sort(), [
      "demo:latest",
      "tiny-a:latest",
      "tiny-b:latest",
    ]);
  });
});
