import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { writeDemoModel } from "../src/demo/demo-model.js";
import { digestOfFile } from "../src/store/blob-store.js";
import { type Sample, spawnDirect } from "./direct.js";
import { httpGenerate, httpGenerateCount, spawnServer } from "./http-client.js";
import { type ModelResults, renderReport } from "./report.js";

const here = fileURLToPath(new URL(".", import.meta.url));
const PACKAGE = resolve(here, "../..");
const MAIN = join(PACKAGE, "dist/src/cli/main.js");
const STORIES = resolve(PACKAGE, "../../../shared/models/stories260K.gguf");
const PROMPT = "Once upon a time";
const TOKENS = 200;
const REPS = 15;
const THREADS = 1;

async function register(url: string, path: string, name: string): Promise<void> {
  const digest = await digestOfFile(path);
  await fetch(`${url}/api/blobs/${digest}`, { method: "POST", body: await readFile(path) });
  const res = await fetch(`${url}/api/create`, {
    method: "POST",
    body: JSON.stringify({ model: name, files: { "model.gguf": digest }, stream: false }),
  });
  if (!res.ok) throw new Error(`create failed: ${await res.text()}`);
}

/** Interleaves direct and HTTP runs so load on the shared machine hits both alike. */
async function singleStream(modelPath: string, url: string) {
  const direct = await spawnDirect(join(here, "direct-worker.js"), modelPath, THREADS, 2048);
  const d: Sample[] = [];
  const h: Array<Sample & { serverTps: number }> = [];
  const whole: number[] = [];
  await direct.run(PROMPT, 20);
  await httpGenerate(url, "bench", PROMPT, 20, THREADS);
  const settle = () => new Promise((r) => setTimeout(r, 30));
  for (let i = 0; i < REPS; i++) {
    // Alternate which path goes first, so neither always runs right after the other.
    if (i % 2 === 0) {
      d.push(await direct.run(PROMPT, TOKENS));
      await settle();
      h.push(await httpGenerate(url, "bench", PROMPT, TOKENS, THREADS));
    } else {
      h.push(await httpGenerate(url, "bench", PROMPT, TOKENS, THREADS));
      await settle();
      d.push(await direct.run(PROMPT, TOKENS));
    }
    await settle();
    whole.push((await httpGenerateCount(url, "bench", PROMPT, TOKENS, THREADS)).serverTps);
    await settle();
  }
  await direct.close();
  return { d, h, whole };
}

async function aggregate(url: string, clients: number): Promise<number> {
  const start = performance.now();
  const counts = await Promise.all(
    Array.from(
      { length: clients },
      async () => (await httpGenerateCount(url, "bench", PROMPT, TOKENS, THREADS)).evalCount,
    ),
  );
  const seconds = (performance.now() - start) / 1000;
  return counts.reduce((a, b) => a + b, 0) / seconds;
}

/** The models to measure: stories260K when present (the choice), and the demo model. */
async function models(work: string): Promise<Array<{ path: string; label: string }>> {
  const demo = join(work, "demo.gguf");
  await writeDemoModel(demo);
  const list = [
    { path: demo, label: "Demo model (generated; llama, 1 layer, embedding 2048, Q8_0, 54 MB)" },
  ];
  if (existsSync(STORIES))
    list.unshift({
      path: STORIES,
      label: "stories260K.gguf (llama, 5 layers, embedding 64, F32, 1.2 MB)",
    });
  return list;
}

/** 1 client vs 4 concurrent clients against one server with LLMSRV_NUM_PARALLEL=4, interleaved. */
async function parallelRuns(env: Record<string, string>, dir: string, modelPath: string) {
  const four = await spawnServer(MAIN, { ...env, LLMSRV_MODELS: dir, LLMSRV_NUM_PARALLEL: "4" });
  await register(four.url, modelPath, "bench");
  await aggregate(four.url, 4);
  const oneClient: number[] = [];
  const fourClients: number[] = [];
  for (let i = 0; i < 7; i++) {
    oneClient.push(await aggregate(four.url, 1));
    fourClients.push(await aggregate(four.url, 4));
  }
  await four.stop();
  return { oneClient, fourClients };
}

async function measure(
  model: { path: string; label: string },
  work: string,
  index: number,
): Promise<ModelResults> {
  const env = {
    LLMSRV_HOST: "127.0.0.1:0",
    LLMSRV_NUM_THREAD: String(THREADS),
    LLMSRV_LOG_LEVEL: "warn",
    LLMSRV_KEEP_ALIVE: "-1",
  };
  const one = await spawnServer(MAIN, { ...env, LLMSRV_MODELS: join(work, `single-${index}`) });
  await register(one.url, model.path, "bench");
  const { d, h, whole } = await singleStream(model.path, one.url);
  await one.stop();
  const parallel = await parallelRuns(env, join(work, `parallel-${index}`), model.path);
  return { label: model.label, direct: d, http: h, wholeServerTps: whole, ...parallel };
}

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), "llmsrv-bench-"));
  const results: ModelResults[] = [];
  for (const [i, model] of (await models(work)).entries())
    results.push(await measure(model, work, i));
  await rm(work, { recursive: true, force: true });
  const text = renderReport(results, {
    prompt: PROMPT,
    tokens: TOKENS,
    reps: REPS,
    threads: THREADS,
  });
  await writeFile(join(PACKAGE, "BENCHMARKS.md"), text);
  process.stdout.write(text);
}

await main();
