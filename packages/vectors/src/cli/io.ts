/** What a command needs from the outside world, injected so tests run commands in-process. */

/** A text stream (stdout or stderr); `isTTY` selects the progress bar. */
export interface TextSink {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

export interface CliIo {
  readonly stdout: TextSink;
  readonly stderr: TextSink;
  readonly env: NodeJS.ProcessEnv;
}

/** Exit statuses of the CLI (documented in the README). */
export const exitCodes = {
  ok: 0,
  failure: 1,
  usage: 2,
  /** A load finished but skipped rows whose embedding could not be obtained. */
  skippedRows: 3,
  /** Another process holds the table or the embedded data directory. */
  busy: 4,
  /** Interrupted by SIGINT/SIGTERM (128 + SIGINT); a load keeps nothing half done. */
  interrupted: 130,
} as const;

/** One CLI verb. `run` returns the exit status (see {@link exitCodes}). */
export interface Command {
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  run(argv: readonly string[], io: CliIo): Promise<number>;
}

/** The real process streams and environment. */
export function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env };
}
