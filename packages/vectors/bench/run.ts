/**
 * `npm run bench -w @quintet/vectors`: query latency exact vs HNSW (with recall@3) and load
 * throughput batched vs one request per row, written to BENCHMARKS.md with machine and date.
 * Knobs (environment): BENCH_ROWS (20000), BENCH_QUERIES (100), BENCH_M (16),
 * BENCH_EF_CONSTRUCTION (64), BENCH_SKIP_LLMSRV=1, BENCH_SKIP_LOAD=1, BENCH_OUT (BENCHMARKS.md).
 */
import type { ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { llmsrvBin, startNode } from "../test/child-process.js";
import { startEmbeddingsEndpoint } from "../test/embeddings-endpoint.js";
import { serverTarget } from "./bench-targets.js";
import {
  type EncodingLine,
  type LoadLine,
  type LoadSetting,
  median,
  runEncodingBench,
  runLoadBench,
} from "./load-bench.js";
import { type QueryBenchResult, runQueryBench } from "./query-bench.js";
import { ms } from "./stats.js";
import { currentDist, runStreamBench, streamMarkdown } from "./stream-bench.js";

const log = (line: string) => process.stderr.write(`${line}\n`);
const knob = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const settings: LoadSetting[] = [
  { batchSize: 1, concurrency: 1 },
  { batchSize: 1, concurrency: 2 },
  { batchSize: 32, concurrency: 2 },
];

interface LoadSection {
  readonly title: string;
  readonly lines?: LoadLine[];
  readonly note: string;
  /** Embeddings alone with vectors as JSON numbers and as base64 (llmsrv only). */
  readonly encodings?: EncodingLine[];
}

async function localEndpointLoad(): Promise<LoadSection> {
  const endpoint = await startEmbeddingsEndpoint({ dim: 2048 });
  try {
    log("load: local OpenAI-compatible endpoint (hash vectors, no model)");
    const lines = await runLoadBench(endpoint.url, 10, settings, 3, log);
    return {
      title: "Local test endpoint (in-process HTTP server, hash vectors, no model work)",
      lines,
      note: "Measures the client, HTTP and insert path alone: per-request overhead with nothing else to hide it.",
    };
  } finally {
    await endpoint.close();
  }
}

async function llmsrvLoad(): Promise<LoadSection> {
  const title = "llmsrv (component C) with its demo model, 2048-dim embeddings";
  if (process.env.BENCH_SKIP_LLMSRV === "1")
    return { title, note: "skipped (BENCH_SKIP_LLMSRV=1)" };
  if (!existsSync(llmsrvBin)) return { title, note: `not measured: ${llmsrvBin} is not built` };
  const work = mkdtempSync(join(tmpdir(), "vectors-bench-llmsrv-"));
  const started = await startNode(llmsrvBin, ["serve", "--ensure-demo"], {
    cwd: work,
    env: { ...process.env, LLMSRV_HOST: "127.0.0.1:0", LLMSRV_MODELS: join(work, "models") },
    ready: /listening on (http:\/\/[^\s]+)/,
    timeoutMs: 300_000,
  });
  if ("failure" in started) return { title, note: `not measured: ${started.failure}` };
  const child: ChildProcess = started.child;
  try {
    log("load: llmsrv demo model");
    const url = `${started.match[1]}/v1`;
    // One throw-away load so the model is resident before anything is timed.
    await runLoadBench(url, 1, [{ batchSize: 32, concurrency: 2 }], 1, () => {});
    const lines = await runLoadBench(url, 1, settings, 3, log);
    log("load: llmsrv demo model, vectors as JSON numbers and as base64");
    const encodings = await runEncodingBench(
      url,
      3,
      [settings[0], settings[2]].filter(isSetting),
      5,
      log,
    );
    return {
      title,
      lines,
      encodings,
      note:
        "The real path of `npm start`: llama.cpp embeddings over HTTP, vectors as base64 float32. llmsrv " +
        "decodes a request's texts together, one sequence each (packages/models/src/runtime/text-embedder.ts), " +
        "so a batch saves requests and some model time; on a CPU one text of ~30 tokens is already a matrix " +
        "product, which bounds what batching can add. The rate also moves with the load other jobs put on the " +
        "machine, so compare the rounds, not only the medians.",
    };
  } finally {
    child.kill();
  }
}

const isSetting = (s: LoadSetting | undefined): s is LoadSetting => s !== undefined;

/** The table of vectors as JSON numbers against base64, embeddings only. */
function encodingMarkdown(lines: readonly EncodingLine[]): string[] {
  const rounds = (values: readonly number[]) => values.map((v) => v.toFixed(1)).join(", ");
  return [
    "Vectors as JSON numbers (`encoding_format` float, what the loader asked before 2026-11-28) " +
      "against base64 float32 (what it asks now): embeddings only, the 68-book sample three times " +
      "(204 texts) per pass, five rounds, the two alternating.",
    "",
    "| batch size | concurrency | float, rows/s (rounds) | base64, rows/s (rounds) | base64 / float |",
    "|---|---|---|---|---|",
    ...lines.map((l) => {
      const float = median(l.float);
      const base64 = median(l.base64);
      const cells = [
        l.batchSize,
        l.concurrency,
        `**${float.toFixed(1)}** (${rounds(l.float)})`,
        `**${base64.toFixed(1)}** (${rounds(l.base64)})`,
        `${(base64 / float).toFixed(2)}x`,
      ];
      return `| ${cells.join(" | ")} |`;
    }),
    "",
  ];
}

function machine(): string {
  const cpu = cpus()[0]?.model ?? "unknown CPU";
  return `${cpu}, ${cpus().length} logical cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM, Node ${process.version}, ${process.platform}`;
}

/** Whether the index met the goal: the fastest setting with recall@3 >= 0.95 and its speed-up. */
function indexVerdict(q: QueryBenchResult): string {
  const exact = q.lines[0];
  const qualifying = q.lines.slice(1).filter((l) => l.recall >= 0.95);
  const best = qualifying.sort((a, b) => a.p50 - b.p50)[0];
  if (!exact || !best) return "Index goal: not met (no setting reached recall@3 0.95).";
  const speedup = exact.p50 / best.p50;
  const verdict = speedup >= 10 ? "met" : "not met";
  return (
    `Index goal: ${verdict}; fastest setting with recall@3 >= 0.95 is ${best.label}: p50 ${ms(best.p50)} ms ` +
    `against ${ms(exact.p50)} ms exact (${speedup.toFixed(1)}x), recall@3 ${best.recall.toFixed(3)}.`
  );
}

function queryMarkdown(q: QueryBenchResult, server?: QueryBenchResult): string[] {
  const exact = q.lines[0];
  const rows = q.lines.map((l, i) => {
    const speedup = exact ? (exact.p50 / l.p50).toFixed(1) : "-";
    const s = server?.lines[i];
    const onServer = server ? ` ${s ? `${ms(s.p50)} | ${s.recall.toFixed(3)}` : "- | -"} |` : "";
    return `| ${l.label} | ${ms(l.p50)} | ${ms(l.p99)} | ${ms(l.mean)} | ${l.recall.toFixed(3)} | ${speedup}x |${onServer}`;
  });
  const serverHead = server ? " PostgreSQL server p50 ms | server recall@3 |" : "";
  const serverRule = server ? "---|---|" : "";
  const o = q.options;
  return [
    "## Query latency: exact search vs halfvec HNSW",
    "",
    `${o.rows} synthetic rows of dimension ${o.dim} (unit vectors around 200 random topic centres, seeded), ` +
      `embedded PGlite in memory, ${q.versions}. ${o.queries} queries drawn from the same distribution ` +
      "(not stored rows), each timed through `VectorStore.query` (the CLI's path) after 3 warm-up queries. " +
      "Recall@3 = share of the exact top 3 that the index returns.",
    "",
    `Insert: ${q.insertSeconds.toFixed(1)} s. Index build (\`vectors index\`: HNSW on \`(doc_embedding::halfvec(${o.dim}))\`, ` +
      `halfvec_l2_ops, m=${o.m}, ef_construction=${o.efConstruction}, maintenance_work_mem=${o.maintenanceWorkMem}): ` +
      `${q.buildSeconds.toFixed(1)} s.`,
    "",
    `| search | p50 ms | p99 ms | mean ms | recall@3 | p50 speed-up |${serverHead}`,
    `|---|---|---|---|---|---|${serverRule}`,
    ...rows,
    "",
    server
      ? `PostgreSQL server columns: the same rows and queries on ${server.versions} (BENCH_PG_URL or ` +
        `TEST_DATABASE_URL; a database of its own, dropped afterwards); insert ${server.insertSeconds.toFixed(1)} s, ` +
        `index build ${server.buildSeconds.toFixed(1)} s.`
      : "No PostgreSQL server column: neither BENCH_PG_URL nor TEST_DATABASE_URL was set.",
    "",
    "Build setting: the same as `vectors index` without options (pgvector's defaults). BENCH_M and " +
      "BENCH_EF_CONSTRUCTION try others. Query times include the whole `VectorStore.query` round trip " +
      "through PGlite (single-threaded WebAssembly, where halfvec is converted in software).",
    "",
    "Plan the planner chose for the indexed query (no settings forced):",
    "",
    "```",
    q.plan,
    "```",
    "",
  ];
}

function loadMarkdown(sections: readonly LoadSection[]): string[] {
  const out = [
    "## Load throughput: batched requests vs one request per row",
    "",
    "`loadDataset` (the code behind `vectors load`) into embedded PGlite in memory, same run, same " +
      "endpoint. Three rounds with the settings interleaved; every pass embeds texts of its own (the " +
      "68-book sample, repeated for the local endpoint, each summary tagged with its pass), so no cache " +
      'can favour a later pass; the table shows medians in bold, each round in brackets. "Load rows/s" ' +
      "counts stored rows over the whole " +
      'load (dataset read, embeddings, one committed INSERT per row); "embeddings only" fetches the ' +
      "embeddings with the same batching and concurrency and stores nothing, isolating what batching " +
      "changes. Each committed insert of a 2048-dim row costs about 3-6 ms in PGlite, depending on machine " +
      "load (measured separately: most of it is parsing the 2048-number vector literal in WebAssembly), " +
      "which bounds a PGlite load at a few hundred rows/s whatever the endpoint does.",
    "",
  ];
  for (const s of sections) {
    out.push(`### ${s.title}`, "", s.note, "");
    if (!s.lines) continue;
    out.push(
      "| batch size | concurrency | embeddings only, rows/s (rounds) | load: rows stored | requests per load | load rows/s (rounds) |",
      "|---|---|---|---|---|---|",
    );
    for (const l of s.lines) {
      const rounds = (values: readonly number[]) => values.map((v) => v.toFixed(1)).join(", ");
      const embed = `**${l.embedRowsPerSecond.toFixed(1)}** (${rounds(l.embedSamples)})`;
      const load = `**${l.rowsPerSecond.toFixed(1)}** (${rounds(l.loadSamples)})`;
      const cells = [l.batchSize, l.concurrency, embed, `${l.stored}/${l.rows}`, l.requests, load];
      out.push(`| ${cells.join(" | ")} |`);
    }
    const single = s.lines.find((l) => l.batchSize === 1 && l.concurrency === 2);
    const batched = s.lines.find((l) => l.batchSize > 1);
    if (single && batched) {
      const embedGain = (batched.embedRowsPerSecond / single.embedRowsPerSecond).toFixed(1);
      const loadGain = (batched.rowsPerSecond / single.rowsPerSecond).toFixed(1);
      out.push(
        "",
        `Batched vs one request per row (both concurrency 2): embeddings ${embedGain}x, whole load ${loadGain}x.`,
      );
    }
    out.push("");
    if (s.encodings) out.push(...encodingMarkdown(s.encodings));
  }
  return out;
}

const streamHeapMiB = 1024;

/** The streaming-load section: this build, and BENCH_BASELINE_DIST's build when given. */
async function streamSection(): Promise<string[]> {
  const sizes = (process.env.BENCH_STREAM_ROWS ?? "10000,100000").split(",").map(Number);
  const builds = [{ name: "streaming (this build)", dist: currentDist }];
  const baseline = process.env.BENCH_BASELINE_DIST;
  if (baseline) builds.push({ name: "before (whole file in memory)", dist: baseline });
  const url = process.env.BENCH_DATABASE_URL;
  const target = url
    ? "a PostgreSQL 15 server with pgvector (BENCH_DATABASE_URL)"
    : "a fresh on-disk PGlite directory";
  const lines = await runStreamBench(sizes, builds, streamHeapMiB, log, url);
  return streamMarkdown(lines, streamHeapMiB, target);
}

const streamHeading = "## Streaming load: memory and speed by dataset size";

/** Puts the streaming section into an existing report, replacing an older one. */
function withStreamSection(report: string, section: readonly string[]): string {
  const start = report.indexOf(streamHeading);
  if (start < 0) return `${report.trimEnd()}\n\n${section.join("\n")}`;
  const next = report.indexOf("\n## ", start + streamHeading.length);
  const rest = next < 0 ? "" : report.slice(next + 1);
  return `${report.slice(0, start)}${section.join("\n")}\n${rest}`;
}

async function main(): Promise<void> {
  const out =
    process.env.BENCH_OUT ?? fileURLToPath(new URL("../../BENCHMARKS.md", import.meta.url));
  if (process.env.BENCH_ONLY === "stream") {
    // Only the streaming figures, into the existing report (the others take most of an hour).
    const section = await streamSection();
    await writeFile(out, withStreamSection(await readFile(out, "utf8"), section));
    log(`wrote ${out}`);
    return;
  }
  const started = new Date();
  const query = await runQueryBench(
    {
      rows: knob("BENCH_ROWS", 20_000),
      dim: 2048,
      queries: knob("BENCH_QUERIES", 100),
      m: knob("BENCH_M", 16),
      efConstruction: knob("BENCH_EF_CONSTRUCTION", 64),
      efSearch: [20, 40, 100, 200],
      maintenanceWorkMem: "512MB",
    },
    log,
  );
  const target = serverTarget();
  if (target) log(`query benchmark again on the ${target.label}`);
  const server = target ? await runQueryBench(query.options, log, target) : undefined;
  const loads =
    process.env.BENCH_SKIP_LOAD === "1" ? [] : [await localEndpointLoad(), await llmsrvLoad()];
  const report = [
    "# Vector store benchmarks",
    "",
    `Run: ${started.toISOString()} (\`npm run bench -w @quintet/vectors\`), ${((Date.now() - started.getTime()) / 1000).toFixed(0)} s in all.`,
    `Machine: ${machine()}; shared with other jobs during the run, so single timings are noisy.`,
    "Goals (issue 6): index >= 10x faster than exact search at recall@3 >= 0.95; batching faster than one request per row.",
    indexVerdict(query),
    "",
    ...queryMarkdown(query, server),
    ...loadMarkdown(loads),
    ...(process.env.BENCH_SKIP_STREAM === "1" ? [] : await streamSection()),
  ].join("\n");
  await writeFile(out, report);
  log(`wrote ${out}`);
}

main().catch((error) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : error}\n`);
  process.exitCode = 1;
});
