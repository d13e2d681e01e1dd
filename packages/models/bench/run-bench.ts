import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { processorLabel } from "../src/cli/processor.js";
import { writeDemoModel } from "../src/demo/demo-model.js";
import { GPU_MODES, type GpuMode } from "../src/runtime/gpu-backend.js";
import { digestOfFile } from "../src/store/blob-store.js";
import { type Sample, spawnDirect } from "./direct.js";
import { embedRowsPerSecond, embedTexts } from "./embed-bench.js";
import { httpGenerate, httpGenerateCount, type ServerProcess, spawnServer } from "./http-client.js";
import { treeCpuSeconds } from "./process-cpu.js";
import { type ModelResults, renderReport } from "./report.js";

const here = fileURLToPath(new URL(".", import.meta.url));
const PACKAGE = resolve(here, "../..");
const MAIN = join(PACKAGE, "dist/src/cli/main.js");
const STORIES = resolve(PACKAGE, "../../../shared/models/stories260K.gguf");
const PROMPT = "Once upon a time";
const TOKENS = 200;
/** Rounds of the single-stream and the parallel sections (BENCH_REPS, BENCH_PARALLEL_REPS). */
const REPS = Number(process.env.BENCH_REPS ?? 11);
const PARALLEL_REPS = Number(process.env.BENCH_PARALLEL_REPS ?? 7);
/**
 * BENCH_THREADS: llama.cpp threads of both paths (num_thread / the context's threads); 1 by
 * default, the server's own default (LLMSRV_NUM_THREAD) being the physical core count.
 */
const THREADS = benchThreads(process.env.BENCH_THREADS);

function benchThreads(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === "") return 1;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`BENCH_THREADS: expected a positive integer, got "${raw}"`);
  return n;
}
/**
 * BENCH_GPU: off (default; the CPU figures, on any machine), or auto / cuda / vulkan: the
 * servers get LLMSRV_GPU set so, and the direct path offloads every layer the same way.
 */
const GPU = benchGpu(process.env.BENCH_GPU);

function benchGpu(raw: string | undefined): GpuMode {
  const v = (raw ?? "").trim().toLowerCase();
  if (v === "") return "off";
  const mode = GPU_MODES.find((m) => m === v);
  if (!mode) throw new Error(`BENCH_GPU: expected ${GPU_MODES.join(", ")}, got "${raw}"`);
  return mode;
}

/** Where each server's model runs, as `llmsrv ps` says it (PROCESSOR), from /api/ps. */
async function processors(urls: string[]): Promise<string[]> {
  return Promise.all(
    urls.map(async (url) => {
      const ps = (await (await fetch(`${url}/api/ps`)).json()) as {
        models: Array<{ size: number; size_vram: number }>;
      };
      const m = ps.models[0];
      return m ? processorLabel(m.size, m.size_vram) : "not loaded";
    }),
  );
}
/** Texts per embedding pass, and the texts per request of the batched pass. */
const EMBED_TEXTS = 64;
const EMBED_BATCH = 32;

async function register(url: string, path: string, name: string): Promise<void> {
  const digest = await digestOfFile(path);
  await fetch(`${url}/api/blobs/${digest}`, { method: "POST", body: await readFile(path) });
  const res = await fetch(`${url}/api/create`, {
    method: "POST",
    body: JSON.stringify({ model: name, files: { "model.gguf": digest }, stream: false }),
  });
  if (!res.ok) throw new Error(`create failed: ${await res.text()}`);
}

/** A build of llmsrv to measure: this checkout, and optionally a baseline (BENCH_BASELINE). */
interface Build {
  label: string;
  main: string;
}

/** The builds, this checkout last; BENCH_BASELINE names another checkout's packages/models. */
function builds(): Build[] {
  const base = process.env.BENCH_BASELINE;
  const own = { label: "after", main: MAIN };
  if (!base) return [{ ...own, label: "this build" }];
  return [{ label: "before", main: join(resolve(base), "dist/src/cli/main.js") }, own];
}

/** Rotates `xs` by `i`, so that no path always runs right after the same other one. */
function rotated<T>(xs: T[], i: number): T[] {
  const k = i % xs.length;
  return [...xs.slice(k), ...xs.slice(0, k)];
}

const settle = () => new Promise((r) => setTimeout(r, 30));

/** Interleaves direct and every build's HTTP runs so load on the shared machine hits all alike. */
async function singleStream(modelPath: string, urls: string[]) {
  const direct = await spawnDirect(join(here, "direct-worker.js"), modelPath, THREADS, 2048, GPU);
  const d: Sample[] = [];
  const h = urls.map(() => [] as Array<Sample & { serverTps: number }>);
  const whole = urls.map(() => [] as number[]);
  await direct.run(PROMPT, 20);
  for (const url of urls) await httpGenerate(url, "bench", PROMPT, 20, THREADS);
  const where = { direct: direct.where, http: await processors(urls) };
  const paths = [-1, ...urls.keys()];
  for (let i = 0; i < REPS; i++) {
    for (const p of rotated(paths, i)) {
      if (p < 0) d.push(await direct.run(PROMPT, TOKENS));
      else h[p]?.push(await httpGenerate(urls[p] ?? "", "bench", PROMPT, TOKENS, THREADS));
      await settle();
    }
    for (const [b, url] of urls.entries())
      whole[b]?.push((await httpGenerateCount(url, "bench", PROMPT, TOKENS, THREADS)).serverTps);
  }
  await direct.close();
  return { d, h, whole, where };
}

/** Tokens/s of `clients` concurrent generations, and the server's CPU ms per token. */
async function aggregate(server: ServerProcess, clients: number) {
  const cpu = treeCpuSeconds(server.child.pid);
  const start = performance.now();
  const counts = await Promise.all(
    Array.from(
      { length: clients },
      async () => (await httpGenerateCount(server.url, "bench", PROMPT, TOKENS, THREADS)).evalCount,
    ),
  );
  const seconds = (performance.now() - start) / 1000;
  const tokens = counts.reduce((a, b) => a + b, 0);
  return {
    tps: tokens / seconds,
    cpuMs: ((treeCpuSeconds(server.child.pid) - cpu) * 1000) / tokens,
  };
}

/** Embedding rows/s in requests of `batch` texts, and the server's CPU ms per row. */
async function embedRun(server: ServerProcess, texts: string[], batch: number) {
  const cpu = treeCpuSeconds(server.child.pid);
  const rowsPerSecond = await embedRowsPerSecond(server.url, "bench", texts, batch);
  const cpuMs = ((treeCpuSeconds(server.child.pid) - cpu) * 1000) / texts.length;
  return { rowsPerSecond, cpuMs };
}

/**
 * The window of the section "generating while embedding": at least this many generations and
 * this many milliseconds (a fast model's 3 generations can end before one request embeds).
 */
const MIXED_GENERATIONS = 3;
const MIXED_MIN_MS = 2000;

/**
 * Tokens/s of generations in a row (the window above) while another client embeds requests of
 * EMBED_BATCH texts, and rows/s of the requests that ended inside that window (the one in
 * flight at its end is not counted).
 */
async function generateWhileEmbedding(server: ServerProcess, texts: string[]) {
  let generating = true;
  let rows = 0;
  const start = performance.now();
  const embedding = (async () => {
    for (let i = 0; generating; i = (i + EMBED_BATCH) % texts.length) {
      const batch = texts.slice(i, i + EMBED_BATCH);
      await embedRowsPerSecond(server.url, "bench", batch, EMBED_BATCH);
      if (generating) rows += batch.length;
    }
  })();
  let tokens = 0;
  for (let g = 0; g < MIXED_GENERATIONS || performance.now() - start < MIXED_MIN_MS; g++)
    tokens += (await httpGenerateCount(server.url, "bench", PROMPT, TOKENS, THREADS)).evalCount;
  const seconds = (performance.now() - start) / 1000;
  generating = false;
  await embedding;
  return { tps: tokens / seconds, rowsPerSecond: rows / seconds };
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

/**
 * Per build, on a server with LLMSRV_NUM_PARALLEL=4: 1 client vs 4 concurrent clients, then
 * embeddings one text per request vs 32 per request; builds and settings interleaved.
 */
async function parallelRuns(servers: ServerProcess[]) {
  const texts = embedTexts(EMBED_TEXTS);
  const out = servers.map(() => ({
    oneClient: [] as number[],
    fourClients: [] as number[],
    oneClientCpuMs: [] as number[],
    fourClientsCpuMs: [] as number[],
    embedOne: [] as number[],
    embedBatch: [] as number[],
    embedOneCpuMs: [] as number[],
    embedBatchCpuMs: [] as number[],
    mixedGenerate: [] as number[],
    mixedEmbed: [] as number[],
  }));
  for (const server of servers) {
    await aggregate(server, 4);
    await embedRowsPerSecond(server.url, "bench", texts.slice(0, 4), 1);
  }
  for (let i = 0; i < PARALLEL_REPS; i++) {
    for (const b of rotated([...servers.keys()], i)) {
      const server = servers[b];
      const r = out[b];
      if (!server || !r) continue;
      const one = await aggregate(server, 1);
      const four = await aggregate(server, 4);
      r.oneClient.push(one.tps);
      r.oneClientCpuMs.push(one.cpuMs);
      r.fourClients.push(four.tps);
      r.fourClientsCpuMs.push(four.cpuMs);
      const e1 = await embedRun(server, texts, 1);
      const eb = await embedRun(server, texts, EMBED_BATCH);
      r.embedOne.push(e1.rowsPerSecond);
      r.embedOneCpuMs.push(e1.cpuMs);
      r.embedBatch.push(eb.rowsPerSecond);
      r.embedBatchCpuMs.push(eb.cpuMs);
      const mixed = await generateWhileEmbedding(server, texts);
      r.mixedGenerate.push(mixed.tps);
      r.mixedEmbed.push(mixed.rowsPerSecond);
    }
  }
  return out;
}

/** Starts one server per build with `extra` settings, each with the model registered. */
async function startServers(
  list: Build[],
  env: Record<string, string>,
  dir: string,
  modelPath: string,
): Promise<ServerProcess[]> {
  const servers: ServerProcess[] = [];
  for (const [i, b] of list.entries()) {
    const server = await spawnServer(b.main, { ...env, LLMSRV_MODELS: `${dir}-${i}` });
    servers.push(server);
    await register(server.url, modelPath, "bench");
  }
  return servers;
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
    LLMSRV_GPU: GPU,
  };
  const list = builds();
  const single = await startServers(list, env, join(work, `single-${index}`), model.path);
  const { d, h, whole, where } = await singleStream(
    model.path,
    single.map((s) => s.url),
  );
  for (const s of single) await s.stop();
  const parallelEnv = { ...env, LLMSRV_NUM_PARALLEL: "4" };
  const four = await startServers(list, parallelEnv, join(work, `parallel-${index}`), model.path);
  const parallel = await parallelRuns(four);
  for (const s of four) await s.stop();
  return {
    label: model.label,
    where,
    direct: d,
    builds: list.map((b, i) => {
      const p = parallel[i];
      if (!p) throw new Error(`no parallel results for ${b.label}`);
      return { label: b.label, http: h[i] ?? [], wholeServerTps: whole[i] ?? [], ...p };
    }),
  };
}

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), "llmsrv-bench-"));
  const loadBefore = loadavg();
  const results: ModelResults[] = [];
  for (const [i, model] of (await models(work)).entries())
    results.push(await measure(model, work, i));
  await rm(work, { recursive: true, force: true });
  const text = renderReport(results, {
    prompt: PROMPT,
    tokens: TOKENS,
    reps: REPS,
    threads: THREADS,
    embedTexts: EMBED_TEXTS,
    embedBatch: EMBED_BATCH,
    gpu: GPU,
    loadAverages: [loadBefore, loadavg()],
  });
  await writeFile(process.env.BENCH_OUT ?? join(PACKAGE, "BENCHMARKS.md"), text);
  process.stdout.write(text);
}

await main();
