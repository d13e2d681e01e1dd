/**
 * The flood benchmark: `GET /` latency seen by a second client (one keep-alive connection,
 * one request at a time) with no load, then while `flood.ts` (another process) keeps 50
 * connections busy on `POST /signup` and `POST /login`. Rounds alternate idle and flood on the
 * same server so both see the same machine load. Two servers: default throttles (one attacking
 * address, throttled after a few attempts) and throttles lifted (every flood request hashes, as
 * an attack from many addresses would).
 */
import { spawn } from "node:child_process";
import { Agent, request } from "node:http";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Child, rssOf, startChild, stop } from "./children.js";

const FLOOD = fileURLToPath(new URL("./flood.js", import.meta.url));
const MEASURE_S = Number(process.env.BENCH_FLOOD_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_FLOOD_ROUNDS ?? 2);
/** Connections of the flood. */
export const FLOOD_CONNECTIONS = 50;

/**
 * The address the latency probe connects from. The flood comes from 127.0.0.1; the probe is
 * another client (127.0.0.2, also loopback on Linux), so the app's per-address connection cap
 * (NOTES_MAX_CONNECTIONS_PER_ADDRESS) limits the flood and not the probe, as it would for a
 * real flooding address and its victims.
 */
const PROBE_ADDRESS = "127.0.0.2";

/** One server configuration measured. */
export interface FloodScenario {
  readonly name: string;
  readonly env: Record<string, string>;
}

export const SCENARIOS: readonly FloodScenario[] = [
  { name: "default throttles (one flooding address)", env: {} },
  {
    name: "throttles lifted (every flood request hashes)",
    env: { NOTES_LOGIN_MAX_FAILURES: "1000000", NOTES_SIGNUP_MAX_ATTEMPTS: "1000000" },
  },
];

/** Figures of one scenario. */
export interface FloodResult {
  readonly scenario: FloodScenario;
  /** Sorted GET / latencies (ms) per round. */
  readonly idle: number[][];
  readonly flood: number[][];
  /** What the flood process reported per round (answer counts by status). */
  readonly floodCounts: string[];
  /** Resident memory of the server after the rounds, MiB. */
  readonly memory: { rss: number; peak: number } | undefined;
}

function getOnce(agent: Agent, url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/`, { agent, localAddress: PROBE_ADDRESS }, (res) => {
      res.resume();
      res.on("end", () =>
        res.statusCode === 200 ? resolve() : reject(new Error(`GET / ${res.statusCode}`)),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

/** Sequential GET / for `seconds`; sorted latencies in ms. */
async function sampleLatency(url: string, seconds: number): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  const end = performance.now() + seconds * 1000;
  try {
    while (performance.now() < end) {
      const started = performance.now();
      await getOnce(agent, url);
      times.push(performance.now() - started);
    }
  } finally {
    agent.destroy();
  }
  return times.sort((a, b) => a - b);
}

function runFlood(url: string, seconds: number): { done: Promise<string> } {
  const child = spawn(process.execPath, [FLOOD, url, String(seconds), String(FLOOD_CONNECTIONS)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    out += chunk;
  });
  return {
    done: new Promise((resolve, reject) => {
      child.on("exit", (code: number) =>
        code === 0 ? resolve(out.trim()) : reject(new Error(`flood exited with ${code}`)),
      );
    }),
  };
}

async function signUpBenchUser(url: string): Promise<void> {
  const body = "email=bench%40example.com&password1=bench-password&password2=bench-password";
  const response = await fetch(`${url}/signup`, {
    method: "POST",
    body,
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  if (response.status !== 200) throw new Error(`bench sign-up answered ${response.status}`);
}

/** Runs one scenario on a fresh server (embedded PGlite in `dir`). */
export async function measureScenario(
  scenario: FloodScenario,
  cli: string,
  baseEnv: NodeJS.ProcessEnv,
  dir: string,
): Promise<FloodResult> {
  const env = { ...baseEnv, ...scenario.env, NOTES_DATA_DIR: join(dir, `flood-${Date.now()}`) };
  const app: Child = await startChild([cli, "serve"], env);
  try {
    await signUpBenchUser(app.url);
    await sampleLatency(app.url, 1); // warm-up
    const result: FloodResult = {
      scenario,
      idle: [],
      flood: [],
      floodCounts: [],
      memory: undefined,
    };
    for (let round = 0; round < ROUNDS; round++) {
      result.idle.push(await sampleLatency(app.url, MEASURE_S));
      // The flood runs a little longer than the sample, and gets a second to ramp up first.
      const flood = runFlood(app.url, MEASURE_S + 2);
      await new Promise((r) => setTimeout(r, 1000));
      result.flood.push(await sampleLatency(app.url, MEASURE_S));
      result.floodCounts.push(await flood.done);
      process.stderr.write(`${scenario.name}, round ${round + 1}: done\n`);
    }
    return { ...result, memory: await rssOf(app.child.pid) };
  } finally {
    await stop(app.child);
  }
}

/** The p-th percentile of sorted values. */
export function percentile(sorted: readonly number[], p: number): number {
  return (
    sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN
  );
}

const ms = (x: number) => `${x.toFixed(1)} ms`;

/** Markdown of the flood section: per round idle and flood p50/p99, the ratios, the verdict. */
export function renderFloodSection(results: readonly FloodResult[]): string {
  const blocks = results.map((r) => {
    const rows = r.idle.map((idle, i) => {
      const flood = r.flood[i] ?? [];
      const ratio = percentile(flood, 99) / percentile(idle, 99);
      return `| ${i + 1} | ${idle.length} | ${ms(percentile(idle, 50))} | ${ms(percentile(idle, 99))} | ${flood.length} | ${ms(percentile(flood, 50))} | ${ms(percentile(flood, 99))} | ${ratio.toFixed(2)} |`;
    });
    const ratios = r.idle.map((idle, i) => percentile(r.flood[i] ?? [], 99) / percentile(idle, 99));
    const memory = r.memory
      ? `Server memory after the rounds: ${r.memory.rss.toFixed(0)} MiB resident (peak ${r.memory.peak.toFixed(0)} MiB).`
      : "";
    return `### ${r.scenario.name}

| round | idle GET / requests | idle p50 | idle p99 | GET / requests under flood | flood p50 | flood p99 | p99 flood / idle |
|---|---|---|---|---|---|---|---|
${rows.join("\n")}

Goal p99 under flood <= 5x idle: ${verdict(ratios)}.
${memory}

Flood answers per round (status: count):
${r.floodCounts.map((c, i) => `- round ${i + 1}: ${summariseCounts(c)}`).join("\n")}
`;
  });
  return blocks.join("\n");
}

/** "**met** in all n rounds" or "**not met** in k of n rounds", with the worst ratio. */
function verdict(ratios: readonly number[]): string {
  const missed = ratios.filter((x) => !(x <= 5)).length;
  const worst = `worst ratio ${Math.max(...ratios).toFixed(2)}`;
  if (missed === 0) return `**met** in all ${ratios.length} rounds (${worst})`;
  return `**not met** in ${missed} of ${ratios.length} rounds (${worst})`;
}

/** "signup 200: n, 429: m; login ..." from the flood's JSON line. */
function summariseCounts(line: string): string {
  try {
    const parsed = JSON.parse(line) as Record<
      string,
      { requests: number; status?: Record<string, { count: number }> }
    >;
    return Object.entries(parsed)
      .map(([name, c]) => {
        const byStatus = Object.entries(c.status ?? {}).map(([code, s]) => `${code}: ${s.count}`);
        return `${name} ${c.requests} requests (${byStatus.join(", ")})`;
      })
      .join("; ");
  } catch {
    return line;
  }
}
