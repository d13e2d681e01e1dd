// Which backend a runner opens: reported once its library is open, and an explicit GPU that cannot run.
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { writeDemoModel } from "../src/demo/demo-model.js";
import type { BackendReport } from "../src/runtime/gpu-backend.js";
import type { LoadSpec } from "../src/runtime/model-runner.js";
import { ProcessRuntime } from "../src/runtime/process-runtime.js";

describe("a runner's backend", { timeout: 120_000 }, () => {
  let dir: string;
  let spec: LoadSpec;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "llmsrv-backend-"));
    const modelPath = join(dir, "demo.gguf");
    await writeDemoModel(modelPath);
    spec = {
      modelPath,
      contextSize: 64,
      sequences: 1,
      threads: 1,
      flashAttention: false,
      kvCacheType: "f16",
    };
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("is the CPU with LLMSRV_GPU=off, told once, and that runner serves the first load", async () => {
    const reports: BackendReport[] = [];
    const pids: Array<number | undefined> = [];
    const runtime = new ProcessRuntime({
      maxThreads: 1,
      gpu: "off",
      onBackend: (r) => reports.push(r),
      onLoadStart: (pid) => pids.push(pid),
    });
    try {
      assert.equal(await runtime.backend(), "cpu");
      assert.equal(await runtime.backend(), "cpu");
      assert.deepEqual(reports, [{ backend: "cpu", devices: [], vramTotal: 0 }]);
      const loaded = await runtime.load(spec);
      assert.equal(loaded.vramBytes, 0);
      assert.ok(loaded.sizeBytes > 0);
      assert.equal(pids.length, 1);
      await loaded.unload();
    } finally {
      await runtime.close();
    }
  });

  it("an explicit LLMSRV_GPU=cuda that cannot run (CUDA_VISIBLE_DEVICES=-1) fails loads naming the variable", async () => {
    const saved = process.env.CUDA_VISIBLE_DEVICES;
    // Inherited by the runner: CUDA then sees no device, on any machine.
    process.env.CUDA_VISIBLE_DEVICES = "-1";
    const reports: BackendReport[] = [];
    const runtime = new ProcessRuntime({
      maxThreads: 1,
      gpu: "cuda",
      onBackend: (r) => reports.push(r),
    });
    try {
      assert.equal(await runtime.backend(), "cpu", "counted as the CPU for the defaults");
      const [report] = reports;
      assert.ok(report && "error" in report);
      assert.match(report.error, /^LLMSRV_GPU=cuda: node-llama-cpp's cuda build cannot run/);
      await assert.rejects(runtime.load(spec), /LLMSRV_GPU=cuda: node-llama-cpp's cuda build/);
    } finally {
      if (saved === undefined) delete process.env.CUDA_VISIBLE_DEVICES;
      else process.env.CUDA_VISIBLE_DEVICES = saved;
      await runtime.close();
    }
  });
});
