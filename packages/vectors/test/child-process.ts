/** Runs built binaries as child processes, the way the launcher does. */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The compiled `vectors` entry point (dist/src/cli/main.js). */
export const vectorsBin = fileURLToPath(new URL("../src/cli/main.js", import.meta.url));

/** The compiled `llmsrv` entry point of component C (may be absent). */
export const llmsrvBin = fileURLToPath(
  new URL("../../../models/dist/src/cli/main.js", import.meta.url),
);

export interface Finished {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `node <script> ...args` to completion. */
export function runNode(
  script: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      ...options,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Starts a long-running `node <script>` and waits for a stdout line matching `ready`.
 * @returns the child and the match, or the reason it did not become ready.
 */
export function startNode(
  script: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; ready: RegExp; timeoutMs: number },
): Promise<{ child: ChildProcess; match: RegExpMatchArray } | { failure: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd: options.cwd,
      env: options.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const timer = setTimeout(() => {
      child.kill();
      resolve({ failure: `not ready within ${options.timeoutMs} ms: ${output.slice(-500)}` });
    }, options.timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk;
      const match = output.match(options.ready);
      if (match) {
        clearTimeout(timer);
        resolve({ child, match });
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ failure: `exited with ${code} before it was ready: ${output.slice(-500)}` });
    });
  });
}
