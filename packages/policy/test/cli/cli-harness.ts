/** Runs `rego` commands in-process with a recording io. */
import type { PolicyIo } from "../../src/cli/cli-io.js";
import { main } from "../../src/cli/main.js";

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `rego <argv>`; `stdin` feeds --stdin and --stdin-input. */
export async function rego(
  argv: string[],
  options: { stdin?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const io: PolicyIo = {
    stdout: {
      write: (t: string) => {
        stdout += t;
      },
    },
    stderr: {
      write: (t: string) => {
        stderr += t;
      },
    },
    env: options.env ?? {},
    // Never aborted: a command that waits on it runs until it ends by itself.
    signal: new AbortController().signal,
    readStdin: async () => options.stdin ?? "",
  };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

/** `rego run` started in-process; it runs until `stop` or until it exits by itself. */
export interface StartedRun {
  /** The server's base URL, once it listens. */
  readonly url: Promise<string>;
  /** The exit code. */
  readonly done: Promise<number>;
  /** Everything written so far. */
  readonly out: { stdout: string; stderr: string };
  /** Asks the server to stop, as a signal would. */
  stop(): void;
}

/** Starts `rego run <argv>` in-process. */
export function startRun(argv: string[], env: NodeJS.ProcessEnv = {}): StartedRun {
  const controller = new AbortController();
  const out = { stdout: "", stderr: "" };
  let listening: (url: string) => void = () => {};
  const url = new Promise<string>((resolve) => {
    listening = resolve;
  });
  const io: PolicyIo = {
    stdout: {
      write: (t: string) => {
        out.stdout += t;
      },
    },
    stderr: {
      write: (t: string) => {
        out.stderr += t;
      },
    },
    env,
    readStdin: async () => "",
    signal: controller.signal,
    onListening: (u) => listening(u),
  };
  // The test process stays up while the server runs. Twice under CI load the loop ran out of
  // referenced handles while a run was stopping (its grace timers and idle evaluation workers
  // are unreferenced; the exact wait was not found) and node:test ended the whole file
  // ("Promise resolution is still pending but the event loop has already resolved"). A run
  // that never ends now fails by its test's timeout instead.
  const keepAlive = setInterval(() => {}, 60_000);
  const done = main(["run", ...argv], io).finally(() => clearInterval(keepAlive));
  return { url, done, stop: () => controller.abort(), out };
}

/** The run's base URL once it listens; rejects with its stderr if it exits first. */
export function listeningUrl(run: StartedRun): Promise<string> {
  return Promise.race([
    run.url,
    run.done.then((code) => {
      throw new Error(`rego run exited ${code}: ${run.out.stderr}`);
    }),
  ]);
}

/**
 * Polls `f` until it returns true. No timing is asserted: the deadline only turns a hang
 * into a failure that says what was awaited.
 */
export async function eventually(f: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await f())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
