import { type ChildProcess, spawn } from "node:child_process";
import { Agent, request } from "node:http";
import { type Sample, sampleFrom } from "./direct.js";

/** A server started as a child process, the way the launcher runs it. */
export interface ServerProcess {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Spawns `llmsrv serve` with the given environment; resolves once it prints its URL. */
export function spawnServer(mainJs: string, env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, [mainJs, "serve"], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m?.[1]) {
        resolve({
          url: m[1],
          child,
          stop: () =>
            new Promise<void>((done) => {
              child.once("exit", () => done());
              child.kill("SIGTERM");
            }),
        });
      }
    });
    child.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
  });
}

const agent = new Agent({ keepAlive: true });

/** POSTs JSON with node:http (lighter than fetch, so the measuring client steals less CPU). */
function post(
  url: string,
  path: string,
  body: unknown,
  onData: (chunk: Buffer) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}${path}`,
      { method: "POST", agent, headers: { "Content-Type": "application/json" } },
      (res) => {
        res.on("data", onData);
        res.on("end", () => resolve());
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

/**
 * One streamed `/api/generate` (raw prompt, greedy). The client's clock times the first
 * text line and the last one; the token count is the final line's eval_count. Only the
 * final line is parsed: the client is the measuring instrument and should stay light.
 */
export async function httpGenerate(
  url: string,
  model: string,
  prompt: string,
  tokens: number,
  threads: number,
): Promise<Sample & { serverTps: number }> {
  const times: number[] = [];
  let tail = "";
  const start = performance.now();
  await post(
    url,
    "/api/generate",
    {
      model,
      prompt,
      raw: true,
      stream: true,
      options: { temperature: 0, num_predict: tokens, num_thread: threads, num_ctx: 2048 },
    },
    (chunk) => {
      const now = performance.now();
      const text = chunk.toString("utf8");
      tail = (tail + text).slice(-4096);
      if (text.includes('"done":false')) times.push(now); // the chunk carries generated text
    },
  );
  const last = JSON.parse(tail.trim().split("\n").at(-1) ?? "{}") as {
    error?: string;
    eval_count?: number;
    eval_duration?: number;
  };
  if (last.error) throw new Error(last.error);
  const evalCount = last.eval_count ?? 0;
  const serverTps = (evalCount / (last.eval_duration ?? 1)) * 1e9;
  return { ...sampleFrom(start, times, evalCount), serverTps };
}

/** Non-streamed generation; returns the server's eval_count and its decode rate. */
export async function httpGenerateCount(
  url: string,
  model: string,
  prompt: string,
  tokens: number,
  threads: number,
): Promise<{ evalCount: number; serverTps: number }> {
  const chunks: Buffer[] = [];
  const body = {
    model,
    prompt,
    raw: true,
    stream: false,
    options: { temperature: 0, num_predict: tokens, num_thread: threads, num_ctx: 2048 },
  };
  await post(url, "/api/generate", body, (chunk) => chunks.push(chunk));
  const r = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
    eval_count: number;
    eval_duration: number;
  };
  return { evalCount: r.eval_count, serverTps: (r.eval_count / r.eval_duration) * 1e9 };
}
