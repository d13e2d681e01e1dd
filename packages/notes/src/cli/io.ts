/**
 * The input/output a CLI command gets, injected so tests run commands in-process.
 */

/** Streams and environment of one command run. */
export interface CliIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly env: NodeJS.ProcessEnv;
  /** Resolves when the process is asked to stop (SIGINT/SIGTERM); tests resolve it themselves. */
  readonly stopSignal: Promise<string>;
}

/** A CLI command: a name, a one-line summary, and a run that returns the exit code. */
export interface CliCommand {
  readonly name: string;
  readonly summary: string;
  run(argv: readonly string[], io: CliIo): Promise<number>;
}

/** Exit codes: 0 ok, 1 failure, 2 usage. */
export const EXIT = Object.freeze({ ok: 0, failure: 1, usage: 2 });
