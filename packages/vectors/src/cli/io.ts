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

/** One CLI verb. `run` returns the exit status: 0 ok, 1 failure, 2 usage. */
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
