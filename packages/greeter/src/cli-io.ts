/** What a command may touch, injected so tests run commands in-process. */
export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  env: NodeJS.ProcessEnv;
  /** Aborted when the process is asked to stop (SIGINT/SIGTERM). */
  signal: AbortSignal;
}

export interface Command {
  name: string;
  summary: string;
  /** Resolves to the exit code: 0 ok, 1 failure, 2 usage. */
  run(argv: string[], io: CliIO): Promise<number>;
}
