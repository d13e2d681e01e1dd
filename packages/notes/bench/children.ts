/**
 * Child processes of the benchmark: servers that announce `listening on <url>` on stdout, and
 * stopping them.
 */
import { type ChildProcess, spawn } from "node:child_process";

/** A started child server. */
export interface Child {
  readonly url: string;
  readonly child: ChildProcess;
}

/** Starts a node child process and resolves with its URL once it prints `listening on`. */
export function startChild(args: string[], env: NodeJS.ProcessEnv): Promise<Child> {
  const child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk) => {
      out += chunk;
      const url = /listening on (http:\/\/[\d.]+:\d+)/.exec(out)?.[1];
      if (url) resolve({ url, child });
    });
    child.on("exit", (code) => reject(new Error(`${args.join(" ")} exited with ${code}`)));
  });
}

/** Sends SIGTERM and waits for the exit. */
export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

/** Resident set size (current and peak) of a process in MiB, from /proc; undefined elsewhere. */
export async function rssOf(
  pid: number | undefined,
): Promise<{ rss: number; peak: number } | undefined> {
  if (pid === undefined) return undefined;
  try {
    const { readFile } = await import("node:fs/promises");
    const status = await readFile(`/proc/${pid}/status`, "utf8");
    const kib = (name: string) =>
      Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1]);
    return { rss: kib("VmRSS") / 1024, peak: kib("VmHWM") / 1024 };
  } catch {
    return undefined;
  }
}
