/**
 * What a command may touch besides its arguments. Injected so that tests run commands
 * in-process and read what they printed.
 */

export interface CliIO {
  /** Results. */
  stdout(text: string): void;
  /** Diagnostics and logs. */
  stderr(text: string): void;
  /** The environment, read only through config.ts's loadConfig. */
  readonly env: NodeJS.ProcessEnv;
  /** The whole of standard input (for --stdin and --stdin-input). */
  readStdin(): Promise<string>;
  /**
   * Stops long-running commands (`run --server`) when aborted. Without it, `run` stops on
   * SIGTERM or SIGINT.
   */
  readonly signal?: AbortSignal;
  /** Called once a server listens, with its URL (tests learn the ephemeral port here). */
  onListening?(url: string): void;
}

/** A subcommand: `rego <name> ...`. */
export interface Command {
  readonly name: string;
  /** One line for `rego help`. */
  readonly summary: string;
  /** Usage text for `rego help <name>` and usage errors. */
  readonly usage: string;
  /** Runs the command; resolves to the exit code (0 ok, 1 failure, 2 usage). */
  run(argv: string[], io: CliIO): Promise<number>;
}

/** The real process: stdout, stderr, env and stdin. */
export function processIO(): CliIO {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString("utf8");
    },
  };
}
