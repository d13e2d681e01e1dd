import { type ChildProcess, spawn } from "node:child_process";
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

/**
 * One streamed `/api/generate` (raw prompt, greedy): the client's clock times the first
 * text line and the last one; the token count is the final line's eval_count.
 */
export async function httpGenerate(
  url: string,
  model: string,
  prompt: string,
  tokens: number,
  threads: number,
): Promise<Sample & { serverTps: number }> {
  const start = performance.now();
  const res = await fetch(`${url}/api/generate`, {
    method: "POST",
    body: JSON.stringify({
      model,
      prompt,
      raw: true,
      stream: true,
      options: { temperature: 0, num_predict: tokens, num_thread: threads, num_ctx: 2048 },
    }),
  });
  const times: number[] = [];
  let serverTps = 0;
  let evalCount = 0;
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    const now = performance.now();
    buffer += decoder.decode(chunk, { stream: true });
    let nl = buffer.indexOf("\n");
    while (nl >= 0) {
      const line = JSON.parse(buffer.slice(0, nl)) as {
        done: boolean;
        error?: string;
        eval_count?: number;
        eval_duration?: number;
      };
      if (line.error) throw new Error(line.error);
      if (!line.done) times.push(now);
      else {
        evalCount = line.eval_count ?? 0;
        serverTps = (evalCount / (line.eval_duration ?? 1)) * 1e9;
      }
      buffer = buffer.slice(nl + 1);
      nl = buffer.indexOf("\n");
    }
  }
  return { ...sampleFrom(start, times, evalCount), serverTps };
}

/** Non-streamed generation; returns the server's eval_count. */
export async function httpGenerateCount(
  url: string,
  model: string,
  prompt: string,
  tokens: number,
  threads: number,
): Promise<number> {
  const res = await fetch(`${url}/api/generate`, {
    method: "POST",
    body: JSON.stringify({
      model,
      prompt,
      raw: true,
      stream: false,
      options: { temperature: 0, num_predict: tokens, num_thread: threads, num_ctx: 2048 },
    }),
  });
  const body = (await res.json()) as { eval_count: number };
  return body.eval_count;
}
