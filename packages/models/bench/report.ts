import { cpus } from "node:os";
import { physicalCoreCount } from "../src/config.js";
import type { GpuMode } from "../src/runtime/gpu-backend.js";
import type { DirectBackend, Sample } from "./direct.js";

/** What one build of llmsrv measured for one model. */
export interface BuildResults {
  /** "before" (BENCH_BASELINE), "after", or "this build" when there is no baseline. */
  label: string;
  http: Array<Sample & { serverTps: number }>;
  /** Server-reported decode rates of non-streamed requests, interleaved with the pairs. */
  wholeServerTps: number[];
  oneClient: number[];
  fourClients: number[];
  /** CPU ms per generated token of the server and its runners (all processes, all threads). */
  oneClientCpuMs: number[];
  fourClientsCpuMs: number[];
  /** Embedding rows/s, one text per request and a batch per request. */
  embedOne: number[];
  embedBatch: number[];
  /** CPU ms per embedded row of the server and its runners. */
  embedOneCpuMs: number[];
  embedBatchCpuMs: number[];
  /** One client generating while another embeds (batched) on the same model: both rates. */
  mixedGenerate: number[];
  mixedEmbed: number[];
}

/** Everything measured for one model. */
export interface ModelResults {
  label: string;
  /** Where the direct path ran, and each build's model as `llmsrv ps` shows it. */
  where: { direct: DirectBackend; http: string[] };
  direct: Sample[];
  builds: BuildResults[];
}

/** Settings shown in the report's header. */
export interface BenchSettings {
  prompt: string;
  tokens: number;
  reps: number;
  threads: number;
  embedTexts: number;
  embedBatch: number;
  /** BENCH_GPU: the LLMSRV_GPU the servers ran with (off: the CPU). */
  gpu: GpuMode;
  /** os.loadavg() when the run started and when it ended. */
  loadAverages: number[][];
}

/** Median (upper middle for even counts). */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

/** Median of per-pair ratios a[i] / b[i] (pairs measured next to each other). */
function pairedRatio(a: number[], b: number[]): number {
  return median(a.map((x, i) => x / (b[i] ?? Number.NaN)));
}

const f1 = (x: number) => x.toFixed(1);
/** Median CPU ms, with two decimals (small models spend well under a millisecond a token). */
const cpu = (xs: number[]) => median(xs).toFixed(2);
const rounds = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(", ");

function singleStreamRows(r: ModelResults): string[] {
  const dTps = r.direct.map((x) => x.decodeTps);
  const rows = [
    "| Path | Decode tokens/s | Time to first token (ms) | HTTP / direct (per-pair median) | Server rate streamed / `stream: false` |",
    "|---|---|---|---|---|",
    `| node-llama-cpp direct | ${f1(median(dTps))} | ${median(r.direct.map((x) => x.ttftMs)).toFixed(2)} | | |`,
  ];
  for (const b of r.builds) {
    const tps = b.http.map((x) => x.decodeTps);
    const server = `${f1(median(b.http.map((x) => x.serverTps)))} / ${f1(median(b.wholeServerTps))}`;
    rows.push(
      `| llmsrv HTTP stream, ${b.label} | ${f1(median(tps))} | ${median(b.http.map((x) => x.ttftMs)).toFixed(2)} | **${pairedRatio(tps, dTps).toFixed(3)}** | ${server} |`,
    );
  }
  return rows;
}

function parallelRows(r: ModelResults): string[] {
  const rows = [
    "| Build | 1 client, tokens/s | 4 clients, tokens/s | 4 vs 1 (per-pair median) | CPU ms/token, 1 / 4 clients | rounds 1 client | rounds 4 clients |",
    "|---|---|---|---|---|---|---|",
  ];
  for (const b of r.builds)
    rows.push(
      `| ${b.label} | ${f1(median(b.oneClient))} | ${f1(median(b.fourClients))} | **${pairedRatio(b.fourClients, b.oneClient).toFixed(2)}x** | ${cpu(b.oneClientCpuMs)} / ${cpu(b.fourClientsCpuMs)} | ${rounds(b.oneClient)} | ${rounds(b.fourClients)} |`,
    );
  return rows;
}

function embedRows(r: ModelResults, s: BenchSettings): string[] {
  const rows = [
    `| Build | batch 1, rows/s | batch ${s.embedBatch}, rows/s | batch ${s.embedBatch} vs 1 (per-pair median) | CPU ms/row, batch 1 / ${s.embedBatch} | rounds batch 1 | rounds batch ${s.embedBatch} |`,
    "|---|---|---|---|---|---|---|",
  ];
  for (const b of r.builds)
    rows.push(
      `| ${b.label} | ${f1(median(b.embedOne))} | ${f1(median(b.embedBatch))} | **${pairedRatio(b.embedBatch, b.embedOne).toFixed(2)}x** | ${cpu(b.embedOneCpuMs)} / ${cpu(b.embedBatchCpuMs)} | ${rounds(b.embedOne)} | ${rounds(b.embedBatch)} |`,
    );
  return rows;
}

function mixedRows(r: ModelResults, s: BenchSettings): string[] {
  const rows = [
    `| Build | generating alone, tokens/s | generating while embedding, tokens/s | embedding alone (batch ${s.embedBatch}), rows/s | embedding while generating, rows/s | rounds generating / embedding |`,
    "|---|---|---|---|---|---|",
  ];
  for (const b of r.builds)
    rows.push(
      `| ${b.label} | ${f1(median(b.oneClient))} | **${f1(median(b.mixedGenerate))}** | ${f1(median(b.embedBatch))} | **${f1(median(b.mixedEmbed))}** | ${rounds(b.mixedGenerate)} / ${rounds(b.mixedEmbed)} |`,
    );
  return rows;
}

function section(r: ModelResults, s: BenchSettings): string[] {
  const samples = (xs: Sample[]) =>
    xs.map((x) => `${x.decodeTps.toFixed(0)}/${x.ttftMs.toFixed(1)}`).join(", ");
  const devices = r.where.direct.devices.length ? ` (${r.where.direct.devices.join(", ")})` : "";
  return [
    `## ${r.label}`,
    "",
    `Backend: LLMSRV_GPU=${s.gpu}; direct on ${r.where.direct.backend}${devices}; HTTP ${r.builds
      .map((b, i) => `${b.label}: ${r.where.http[i] ?? "?"}`)
      .join(", ")} (\`llmsrv ps\` PROCESSOR).`,
    "",
    "### Single stream: HTTP API vs node-llama-cpp called directly (goal: HTTP / direct >= 0.95)",
    "",
    ...singleStreamRows(r),
    "",
    "### Aggregate throughput, one server with LLMSRV_NUM_PARALLEL=4 (goal: 4 vs 1 >= 2x)",
    "",
    ...parallelRows(r),
    "",
    `### Embeddings, /api/embed, ${s.embedTexts} one-sentence texts, one request at a time (goal: batch ${s.embedBatch} >= 4x batch 1)`,
    "",
    ...embedRows(r, s),
    "",
    "### One client generating while another embeds, on the same model",
    "",
    ...mixedRows(r, s),
    "",
    `Raw single-stream samples (decode tokens/s / TTFT ms), ${s.reps} each:`,
    "",
    `- direct: ${samples(r.direct)}`,
    ...r.builds.map((b) => `- HTTP ${b.label}: ${samples(b.http)}`),
    "",
  ];
}

function loads(l: number[] | undefined): string {
  return (l ?? []).map((x) => x.toFixed(2)).join(", ");
}

function buildsLine(results: ModelResults[]): string {
  const labels = results[0]?.builds.map((b) => b.label) ?? [];
  if (!labels.includes("before")) return "this checkout only";
  return "`before` is the baseline checkout named by BENCH_BASELINE, `after` this one, each its own server";
}

/** The whole BENCHMARKS.md text. */
export function renderReport(results: ModelResults[], s: BenchSettings): string {
  const header = [
    "# llmsrv benchmarks",
    "",
    `Generated by \`npm run bench -w @quintet/models\` on ${new Date().toISOString()}.`,
    "",
    `- Machine: ${cpus()[0]?.model ?? "unknown CPU"}, ${physicalCoreCount()} physical cores, shared with other work while measured (figures drift between runs; each section's pairs are interleaved to cancel that)`,
    `- Backend: BENCH_GPU=${s.gpu} (${s.gpu === "off" ? "CPU only" : "servers with LLMSRV_GPU set so, the direct path with every layer offloaded"}); each model's section says where it ran`,
    `- Threads: ${s.threads} for both paths (the same LLMSRV_NUM_THREAD / context threads); greedy decoding; prompt "${s.prompt}"; ${s.tokens} tokens per generation`,
    "- Direct: node-llama-cpp `LlamaCompletion` in a child process of its own, timing each streamed text chunk.",
    "- HTTP: `llmsrv serve` as its own process; the client (node:http, in the benchmark process, which loads no model) times streamed NDJSON lines over TCP (raw prompt, same tokens).",
    "- Aggregate: non-streamed `/api/generate` requests, total generated tokens / wall time.",
    "- Embeddings: `/api/embed` on the same LLMSRV_NUM_PARALLEL=4 server, every text once per pass, rows / wall time.",
    "- CPU ms: user + system time of the server process and its runner processes (/proc) over a run, per token or row; unlike wall time it hardly moves with the load other jobs put on the machine.",
    `- Builds: ${buildsLine(results)}; their runs alternate (rotating order) within every round.`,
    `- Load average (1, 5, 15 min) at the start: ${loads(s.loadAverages[0])}; at the end: ${loads(s.loadAverages[1])}.`,
    "",
  ];
  const notes = [
    "## Reading these figures",
    "",
    "- The machine has 2 cores shared with other jobs; single runs vary by 2-3x, which is why every",
    "  comparison is made between neighbouring runs and reported as a median of per-pair figures.",
    "- A streamed request keeps a third thread busy (the client reading every flush) next to llama.cpp's",
    "  threads and the server's event loop; on 2 busy cores this costs the server some decode speed, visible",
    "  as the gap between its streamed and `stream: false` rates.",
    "- On the CPU, `after` generates on the package's addon (src/runtime/addon-text-model.ts): every",
    "  generating slot's next token in one llama_decode per step (src/runtime/slot-stepper.ts), on a thread",
    "  pool the context keeps. The direct path, and `before` when BENCH_BASELINE names a checkout older than",
    "  that, generate through node-llama-cpp, whose contexts have no thread pool: ggml then starts and joins",
    "  its worker threads for every decode, which with 2 threads on a 2-core machine costs more than the",
    "  decode itself. With 1 thread (BENCH_THREADS=1) there are no workers to start.",
    "- 4 clients vs 1: one llama_decode of 4 tokens reads the weights once, but on a CPU its matrix products",
    "  can cost nearly 4 times one token's (the demo model on the addon alone, on an AMD EPYC: about 1.2 ms",
    "  for one token, 3.7 ms for four, 2 threads). Once one client's decode keeps the cores busy, batching has",
    "  little left to gain;",
    "  it gains most where one token's decode waits on reading the weights or on per-call work (a GPU).",
    "- Generating while embedding: non-streamed generations in a row by one client (at least 3, for at least",
    "  2 s) while another embeds batches on the same model, both rates over that window (embedding requests",
    "  that ended inside it). The two share the cores: a fair share would",
    "  roughly halve each. Where a text model's two contexts would need more threads than cores, they compute",
    "  in turns on one thread pool (native/src/compute-turns.h); with a pool each, a step and an embedding",
    "  decode ran at once on twice as many threads as cores.",
    "- CPU ms per token counts the server's and the runner's JavaScript too (detokenizing, stop sequences,",
    "  IPC, HTTP), and the time llama.cpp's threads spin between decodes.",
    "- Embeddings: a request's texts are decoded together, each its own sequence (src/runtime/text-embedder.ts,",
    "  native/src/embedding.cpp; up to 16 texts or 256 tokens per llama_decode on the CPU). That saves the per-decode",
    "  and per-request work, not the model's arithmetic. A model that does not pool computes no logits",
    "  (native/src/hidden-capture.h): its last token's hidden state is read during the decode. What is",
    "  left is every token's matrix products, which a CPU computes at much the same cost alone or batched",
    "  once a text has a few dozen tokens: batch 1 is already a matrix of the text's tokens.",
    "",
  ];
  return [...header, ...results.flatMap((r) => section(r, s)), ...notes].join("\n");
}
