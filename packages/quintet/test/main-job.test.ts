/**
 * The main job end to end, as `npm start` runs it: `quintet up` starts all five components,
 * each answers its spec request through what the launcher started, and SIGINT (Ctrl-C) leaves
 * no process of the tree behind. Ports, model store and data directories are the test's own.
 */
import assert from "node:assert/strict";
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import { repoRoot } from "../src/components.js";
import { freePort } from "./free-port.js";

const run = promisify(execFile);
const cli = join(repoRoot, "packages/quintet/dist/src/cli.js");

interface LogRecord {
  service?: string;
  msg?: string;
  pid?: number;
  level?: string;
}

/** Parent pid of every live process, read from /proc. */
function parentsByPid(): Map<number, number> {
  const parents = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (fields[0] !== "Z") parents.set(Number(entry), Number(fields[1]));
    } catch {
      // The process ended while the folder was read.
    }
  }
  return parents;
}

/** The pids of `root` and everything below it. */
function processTree(root: number): number[] {
  const parents = parentsByPid();
  const tree = [root];
  for (let i = 0; i < tree.length; i++) {
    for (const [pid, parent] of parents) if (parent === tree[i]) tree.push(pid);
  }
  return tree;
}

/** Polls until none of the pids is alive (zombies count as gone) or the bound passes. */
async function survivors(pids: number[], boundMs = 30_000): Promise<number[]> {
  const deadline = Date.now() + boundMs;
  let left = pids;
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const live = parentsByPid();
    left = pids.filter((pid) => live.has(pid));
  }
  return left;
}

describe("the main job (quintet up)", { timeout: 600_000 }, () => {
  const home = mkdtempSync(join(tmpdir(), "quintet-main-job-"));
  const records: LogRecord[] = [];
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_FORMAT: "json" };
  let launcher: ChildProcess;
  let exited: Promise<number | null>;
  let tree: number[] = [];

  before(async () => {
    Object.assign(env, {
      GREETER_ADDR: `127.0.0.1:${await freePort()}`,
      POLICY_ADDR: `127.0.0.1:${await freePort()}`,
      LLMSRV_HOST: `127.0.0.1:${await freePort()}`,
      NOTES_ADDR: `127.0.0.1:${await freePort()}`,
      LLMSRV_MODELS: join(home, "models"),
      NOTES_DATA_DIR: join(home, "notes"),
      VECTORS_DATA_DIR: join(home, "vectors"),
    });
    launcher = spawn(process.execPath, [cli, "up"], { cwd: repoRoot, env });
    exited = new Promise((resolve) => launcher.once("exit", resolve));
    let pending = "";
    const ready = new Promise<void>((resolve, reject) => {
      let up = false;
      let loaded = false;
      launcher.stdout?.on("data", (chunk: Buffer) => {
        pending += chunk;
        const lines = pending.split("\n");
        pending = lines.pop() ?? "";
        for (const line of lines.filter(Boolean)) {
          const record = JSON.parse(line) as LogRecord;
          records.push(record);
          if (record.service === "quintet" && record.msg?.startsWith("all components up"))
            up = true;
          if (record.service === "quintet" && record.msg === "vectors finished") loaded = true;
        }
        if (up && loaded) resolve();
      });
      launcher.once("exit", (code) =>
        reject(new Error(`launcher exited ${code}: ${JSON.stringify(records.slice(-20))}`)),
      );
    });
    launcher.stderr?.resume();
    await ready;
    tree = processTree(launcher.pid as number);
  });

  after(async () => {
    if (launcher.exitCode === null && launcher.signalCode === null) {
      for (const pid of processTree(launcher.pid as number)) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // Already gone.
        }
      }
    }
    rmSync(home, { recursive: true, force: true });
  });

  it("started every component and logged no error", () => {
    for (const name of ["greeter", "policy", "models", "notes", "vectors"]) {
      assert.ok(
        records.some((r) => r.service === "quintet" && r.msg === `${name} up`),
        `${name} up`,
      );
    }
    const errors = records.filter((r) => r.level === "error" || r.level === "fatal");
    assert.deepEqual(errors, []);
  });

  it("policy: answers the limits decision", async () => {
    const response = await fetch(`http://${env.POLICY_ADDR}/v1/data/limits`, {
      method: "POST",
      body: JSON.stringify({ input: { name: "alice" } }),
    });
    assert.equal(response.status, 200);
    const body = (await response.json()) as { result: Record<string, unknown> };
    assert.equal(body.result.allow, true);
    assert.equal(typeof body.result.limit, "number");
    const health = await fetch(`http://${env.POLICY_ADDR}/health`);
    assert.equal(health.status, 200);
  });

  it("greeter: greets through the gRPC service", async () => {
    const greeter = join(repoRoot, "packages/greeter/dist/src/cli.js");
    const { stdout } = await run(process.execPath, [greeter, "greet", "Ann"], { env });
    assert.match(stdout, /^Hello, Ann, Good (Morning|Afternoon|Evening|Night) !!!$/m);
  });

  it("models: generates text and an embedding with the demo model", async () => {
    const base = `http://${env.LLMSRV_HOST}`;
    const generated = await fetch(`${base}/api/generate`, {
      method: "POST",
      body: JSON.stringify({
        model: "demo",
        prompt: "Hello",
        stream: false,
        options: { num_predict: 8, seed: 1, temperature: 0 },
      }),
    });
    assert.equal(generated.status, 200);
    const answer = (await generated.json()) as { done: boolean; eval_count: number };
    assert.equal(answer.done, true);
    assert.ok(answer.eval_count > 0);
    const embedded = await fetch(`${base}/v1/embeddings`, {
      method: "POST",
      body: JSON.stringify({ model: "demo:latest", input: "a note" }),
    });
    assert.equal(embedded.status, 200);
    const vectors = (await embedded.json()) as { data: { embedding: number[] }[] };
    assert.equal(vectors.data[0]?.embedding.length, 2048);
  });

  it("notes: serves the welcome page", async () => {
    const response = await fetch(`http://${env.NOTES_ADDR}/`);
    assert.equal(response.status, 200);
    assert.match(await response.text(), /<form[^>]+action="\/login"/);
  });

  it("vectors: queries the rows the launcher loaded", async () => {
    const vectors = join(repoRoot, "packages/vectors/dist/src/cli/main.js");
    const { stdout } = await run(
      process.execPath,
      [vectors, "query", "a whale hunt at sea", "--json"],
      { env: { ...env, EMBED_BASE_URL: `http://${env.LLMSRV_HOST}/v1` } },
    );
    const rows = JSON.parse(stdout) as { doc_source: string; doc_content: string }[];
    assert.equal(rows.length, 3);
    // The demo model's embeddings reflect shared words: the whaling voyage comes first.
    assert.match(`${rows[0]?.doc_source} ${rows[0]?.doc_content}`, /Moby-Dick/);
  });

  it("Ctrl-C stops the launcher and leaves no process behind", async () => {
    assert.ok(tree.length >= 5, `process tree: ${tree.join(", ")}`);
    launcher.kill("SIGINT");
    assert.equal(await exited, 0);
    assert.deepEqual(await survivors(tree), []);
  });
});
