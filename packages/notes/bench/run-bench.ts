/**
 * `npm run bench -w @quintet/notes`: measures, in one run,
 *  1. GET / requests/s of the notes app (the real `notes serve` binary) beside a bare
 *     `node:http` server returning the same bytes, interleaved rounds, median per-round ratio;
 *  2. POST /login latency p50/p99 at the default bcrypt cost, plus raw bcrypt timings per cost;
 *  3. GET / latency p50/p99 of a second client while 50 connections flood POST /signup and
 *     POST /login, beside the same with no flood (`flood-latency.ts`);
 *  4. resident memory of the server on embedded PGlite (and on PostgreSQL with
 *     BENCH_DATABASE_URL);
 * and writes the figures to packages/notes/BENCHMARKS.md.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import bcrypt from "bcryptjs";
import { type Child, rssOf, startChild, stop } from "./children.js";
import {
  type FloodResult,
  measureScenario,
  renderFloodSection,
  SCENARIOS,
} from "./flood-latency.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 8);
const CONNECTIONS = 10;
const LOGINS = Number(process.env.BENCH_LOGINS ?? 60);
const DEFAULT_COST = 10;
const CLI = fileURLToPath(new URL("../src/cli.js", import.meta.url));
const BARE = fileURLToPath(new URL("./bare-server.js", import.meta.url));
const REPORT = fileURLToPath(new URL("../../BENCHMARKS.md", import.meta.url));

async function requestsPerSecond(url: string): Promise<number> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  }
  return result.requests.average;
}

function percentile(sorted: number[], p: number): number {
  return (
    sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN
  );
}

async function loginLatencies(url: string): Promise<number[]> {
  const form = new URLSearchParams({
    email: "bench@example.com",
    password1: "bench-password",
    password2: "bench-password",
  });
  const signup = await fetch(`${url}/signup`, { method: "POST", body: form });
  if (signup.status !== 200) throw new Error(`sign-up failed: ${signup.status}`);
  const login = new URLSearchParams({
    email: "bench@example.com",
    password: "bench-password",
  }).toString();
  const times: number[] = [];
  for (let i = 0; i < LOGINS; i++) {
    const started = performance.now();
    const response = await fetch(`${url}/login`, {
      method: "POST",
      body: login,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      redirect: "manual",
    });
    await response.arrayBuffer();
    times.push(performance.now() - started);
    if (response.status !== 307) throw new Error(`login answered ${response.status}`);
  }
  return times.sort((a, b) => a - b);
}

function bcryptTimings(): Array<{ cost: number; ms: number }> {
  return [8, 10, 12].map((cost) => {
    const hash = bcrypt.hashSync("bench-password", cost);
    const started = performance.now();
    const runs = cost >= 12 ? 2 : 5;
    for (let i = 0; i < runs; i++) bcrypt.compareSync("bench-password", hash);
    return { cost, ms: (performance.now() - started) / runs };
  });
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "notes-bench-"));
  const env = {
    ...process.env,
    NOTES_ADDR: "127.0.0.1:0",
    NOTES_DATA_DIR: join(dir, "data"),
    SESSION_SECRET: "bench-secret-0123456789abcdef",
    NOTES_BCRYPT_COST: String(DEFAULT_COST),
    NOTES_LOG_LEVEL: "warn",
    NODE_ENV: "production",
  };
  const app = await startChild([CLI, "serve"], env);
  let bare: Child | undefined;
  try {
    const home = await fetch(`${app.url}/`);
    const headers: Record<string, string> = {};
    home.headers.forEach((value, name) => {
      if (name !== "date" && name !== "connection" && name !== "keep-alive") headers[name] = value;
    });
    const capture = { status: home.status, headers, body: await home.text() };
    await writeFile(join(dir, "capture.json"), JSON.stringify(capture));
    bare = await startChild([BARE, join(dir, "capture.json")], process.env);

    // Warm both servers up (JIT, connection pools) before anything is counted.
    await autocannon({ url: `${bare.url}/`, connections: CONNECTIONS, duration: 2 });
    await autocannon({ url: `${app.url}/`, connections: CONNECTIONS, duration: 2 });
    const appRounds: number[] = [];
    const bareRounds: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      bareRounds.push(await requestsPerSecond(`${bare.url}/`));
      appRounds.push(await requestsPerSecond(`${app.url}/`));
      process.stderr.write(
        `round ${round + 1}: bare ${bareRounds.at(-1)?.toFixed(0)} req/s, notes ${appRounds.at(-1)?.toFixed(0)} req/s\n`,
      );
    }
    const logins = await loginLatencies(app.url);
    const memory = { pglite: await rssOf(app.child.pid), postgres: await postgresMemory(env) };
    const floods: FloodResult[] = [];
    for (const scenario of SCENARIOS) floods.push(await measureScenario(scenario, CLI, env, dir));
    const report = renderReport({
      floods,
      memory,
      appRounds,
      bareRounds,
      bodyBytes: Buffer.byteLength(capture.body),
      headerCount: Object.keys(headers).length,
      logins,
      bcrypt: bcryptTimings(),
    });
    await writeFile(REPORT, report);
    process.stdout.write(report);
  } finally {
    if (bare) await stop(bare.child);
    await stop(app.child);
    await rm(dir, { recursive: true, force: true });
  }
}

type Rss = Awaited<ReturnType<typeof rssOf>>;

/** RSS of `notes serve` on PostgreSQL (BENCH_DATABASE_URL) after the same kind of traffic. */
async function postgresMemory(env: NodeJS.ProcessEnv): Promise<Rss> {
  const url = process.env.BENCH_DATABASE_URL;
  if (!url) return undefined;
  const app = await startChild([CLI, "serve"], { ...env, DATABASE_URL: url });
  try {
    await autocannon({ url: `${app.url}/`, connections: CONNECTIONS, duration: 3 });
    return await rssOf(app.child.pid);
  } finally {
    await stop(app.child);
  }
}

interface Figures {
  floods: FloodResult[];
  memory: { pglite: Rss; postgres: Rss };
  appRounds: number[];
  bareRounds: number[];
  bodyBytes: number;
  headerCount: number;
  logins: number[];
  bcrypt: Array<{ cost: number; ms: number }>;
}

function renderReport(f: Figures): string {
  const best = (xs: number[]) => Math.max(...xs);
  const median = (xs: number[]) =>
    percentile(
      [...xs].sort((a, b) => a - b),
      50,
    );
  // Each app round runs right after its bare round, so a pair sees the same machine load.
  const pairRatios = f.appRounds.map((app, i) => app / (f.bareRounds[i] ?? Number.NaN));
  const ratio = median(pairRatios);
  const fmt = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(", ");
  const p50 = percentile(f.logins, 50);
  const p99 = percentile(f.logins, 99);
  const cost12 = `${(f.bcrypt.find((b) => b.cost === 12)?.ms ?? Number.NaN).toFixed(0)} ms`;
  const costRows = f.bcrypt.map((b) => `| ${b.cost} | ${b.ms.toFixed(1)} ms |`).join("\n");
  return `# Notes benchmarks

Measured by \`npm run bench -w @quintet/notes\` (\`bench/run-bench.ts\`) on ${new Date().toISOString().slice(0, 10)},
Node ${process.version}, ${cpus().length} CPU(s) (${cpus()[0]?.model ?? "unknown"}), a machine shared with other work,
so absolute figures move between runs; the ratio is taken within one run.

## GET / requests per second

The notes app runs as the real binary (\`notes serve\`, embedded PGlite, logs at warn) in its
own process; the baseline is a bare \`node:http\` server (\`bench/bare-server.ts\`) in another
process answering every request with the same status, the same ${f.headerCount} headers and the
same ${f.bodyBytes}-byte body captured from the app. autocannon, ${CONNECTIONS} connections,
${DURATION_S} s per round after a 2 s warm-up of each, rounds interleaved (bare, app, bare,
app, ...). autocannon runs in the benchmark's own process, so the three
processes share the CPUs.

| server | rounds (req/s) | best (req/s) |
|---|---|---|
| bare node:http, same bytes | ${fmt(f.bareRounds)} | ${best(f.bareRounds).toFixed(0)} |
| notes app | ${fmt(f.appRounds)} | ${best(f.appRounds).toFixed(0)} |

Per-round ratios notes / bare (each app round against the bare round just before it):
${pairRatios.map((r) => r.toFixed(2)).join(", ")}.

**Ratio notes / bare: ${ratio.toFixed(2)}** (median of the per-round ratios; goal >= 0.5:
${ratio >= 0.5 ? "met" : "NOT met"}). Best rounds: ${(best(f.appRounds) / best(f.bareRounds)).toFixed(2)}.

## Login latency

${f.logins.length} sequential \`POST /login\` requests (correct password, answer 307) at bcrypt
cost ${DEFAULT_COST} (the default of \`NOTES_BCRYPT_COST\`), measured by the client, keep-alive:

| p50 | p99 |
|---|---|
| ${p50.toFixed(1)} ms | ${p99.toFixed(1)} ms |

One bcrypt comparison (bcryptjs, pure JavaScript) in this process, per cost:

| cost | time |
|---|---|
${costRows}

Why cost ${DEFAULT_COST}: OWASP's password storage guidance names 10 as the minimum work factor
for bcrypt, and it is bcryptjs's own default. Each step up doubles the time in the table above:
with bcryptjs (pure JavaScript, no native build step) cost 12 spends ${cost12} of CPU per
login on this machine, so a few concurrent login attempts would saturate a 2-core
host. Cost ${DEFAULT_COST} keeps a login near the p50 above, while anyone holding a stolen hash
still pays the full 2^${DEFAULT_COST}-round key expansion for every guess. Operators with faster
hardware raise it with \`NOTES_BCRYPT_COST\`; each hash records its cost, so older hashes keep
verifying.

## GET / latency while 50 connections flood sign-up and login

A second client (one keep-alive connection, one request at a time, in the benchmark's process)
measures \`GET /\` for ${process.env.BENCH_FLOOD_SECONDS ?? 8} s with no other traffic, then again while \`bench/flood.ts\` (its own process,
autocannon) keeps 25 connections on \`POST /signup\` (a new email each time) and 25 on
\`POST /login\` (a registered email, a wrong password). Rounds alternate idle and flood on one
server. bcrypt cost ${DEFAULT_COST}, hashing on ${cpus().length > 1 ? cpus().length - 1 : 1} worker thread(s) (the default, cores minus one) at nice 10.
The machine is shared with other builds and tests, so single figures are noisy; compare within a
round.

${renderFloodSection(f.floods)}
## Memory

Resident set size of the \`notes serve\` process (Node, the app and, on PGlite, the embedded
database) after the GET / rounds and the logins above:

| storage | resident now | peak |
|---|---|---|
${memoryRow("embedded PGlite", f.memory.pglite)}
${memoryRow("PostgreSQL (DATABASE_URL; the server's own memory not included)", f.memory.postgres)}
`;
}

function memoryRow(name: string, rss: Rss): string {
  if (!rss) return `| ${name} | not measured | |`;
  return `| ${name} | ${rss.rss.toFixed(0)} MiB | ${rss.peak.toFixed(0)} MiB |`;
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
