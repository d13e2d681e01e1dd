/**
 * Memory and speed of `vectors load` as the dataset grows: each size loaded in a child process
 * of its own (peak RSS from the kernel's count) into an on-disk PGlite directory, through a
 * local HTTP embeddings endpoint that answers deterministic 2048-dim vectors. Optionally the
 * same run with an older build of the loader (BENCH_BASELINE_DIST) for comparison.
 */
import { spawn } from "node:child_process";
import { createWriteStream, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startEmbeddingsEndpoint } from "../test/embeddings-endpoint.js";

export interface StreamLine {
  readonly code: string;
  readonly rows: number;
  readonly stored?: number;
  readonly seconds?: number;
  readonly rowsPerSecond?: number;
  readonly peakRssMiB?: number;
  /** Why the load did not finish (e.g. out of memory). */
  readonly failure?: string;
}

const childScript = fileURLToPath(new URL("./stream-load-child.js", import.meta.url));
/** This build's dist directory. */
export const currentDist = fileURLToPath(new URL("..", import.meta.url));

/** Writes a dataset of `rows` distinct rows (streamed, so the bench itself stays small). */
async function writeDataset(rows: number): Promise<string> {
  const path = join(mkdtempSync(join(tmpdir(), "vectors-stream-")), "rows.txt");
  const out = createWriteStream(path);
  out.write("title|author|summary\n");
  for (let i = 0; i < rows; i++) {
    const line = `Book ${i}|Author ${i % 977}|A story numbered ${i} about a voyage, a quarrel and a return home.\n`;
    if (!out.write(line)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
  }
  await new Promise<void>((resolve, reject) =>
    out.end((error?: Error) => (error ? reject(error) : resolve())),
  );
  return path;
}

function runChild(args: string[], heapMiB: number): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [`--max-old-space-size=${heapMiB}`, childScript, ...args],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
    });
    child.stderr.on("data", (chunk) => {
      out += chunk;
    });
    child.on("close", (code) => resolve({ code, out }));
  });
}

/** Loads each size with each build; `heapMiB` caps the V8 heap as a user's machine would. */
export async function runStreamBench(
  sizes: readonly number[],
  builds: ReadonlyArray<{ name: string; dist: string }>,
  heapMiB: number,
  log: (line: string) => void,
  /** A `postgres://` URL to load into instead of a fresh PGlite directory per load. */
  databaseUrl?: string,
): Promise<StreamLine[]> {
  const endpoint = await startEmbeddingsEndpoint({ dim: 2048 });
  const lines: StreamLine[] = [];
  try {
    for (const rows of sizes) {
      const dataset = await writeDataset(rows);
      for (const build of builds) {
        const database = databaseUrl ?? mkdtempSync(join(tmpdir(), "vectors-stream-db-"));
        log(`streaming load: ${rows} rows with ${build.name}`);
        const { code, out } = await runChild(
          [build.dist, dataset, database, endpoint.url],
          heapMiB,
        );
        const json = out.split("\n").find((l) => l.startsWith("{"));
        if (code === 0 && json) {
          lines.push({ code: build.name, rows, ...JSON.parse(json) });
        } else {
          lines.push({
            code: build.name,
            rows,
            failure: `exit ${code}: ${out.trim().split("\n").slice(-2).join(" ")}`,
          });
        }
        log(`  ${JSON.stringify(lines.at(-1))}`);
      }
    }
  } finally {
    await endpoint.close();
  }
  return lines;
}

/** The section of BENCHMARKS.md for these figures. */
export function streamMarkdown(
  lines: readonly StreamLine[],
  heapMiB: number,
  target: string,
): string[] {
  const rows = lines.map((l) =>
    l.failure
      ? `| ${l.code} | ${l.rows} | - | - | - | failed: ${l.failure.slice(0, 120)} |`
      : `| ${l.code} | ${l.rows} | ${l.stored} | ${l.seconds?.toFixed(1)} | ${l.rowsPerSecond?.toFixed(1)} | ${l.peakRssMiB?.toFixed(0)} MiB |`,
  );
  return [
    "## Streaming load: memory and speed by dataset size",
    "",
    `\`loadDataset\` (what \`vectors load\` runs) in a child process of its own per line, into ${target}, ` +
      "batch 32, concurrency 2, through a local HTTP endpoint answering deterministic " +
      `2048-dim vectors. V8 heap capped at ${heapMiB} MiB (\`--max-old-space-size\`). Peak RSS is the ` +
      "kernel's maximum resident set of the child (with PGlite, its WebAssembly database included).",
    "",
    "| loader | rows | stored | seconds | rows/s | peak RSS |",
    "|---|---|---|---|---|---|",
    ...rows,
    "",
  ];
}
