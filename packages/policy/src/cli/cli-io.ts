/**
 * Policy's part of kit's CLI contract: what a `rego` command may touch besides its
 * arguments, injected so that tests run commands in-process and read what they printed.
 */
import { type CliIo, type Command as KitCommand, processIo } from "@quintet/kit";

export interface PolicyIo extends CliIo {
  /** The whole of standard input (for --stdin and --stdin-input). */
  readStdin(): Promise<string>;
  /** Called once a server listens, with its URL (tests learn the ephemeral port here). */
  onListening?(url: string): void;
}

/** A subcommand: `rego <name> ...`; `usage` is printed for `rego help <name>` and usage errors. */
export interface Command extends KitCommand<PolicyIo> {
  readonly usage: string;
}

/** The real process: stdout, stderr, env, stdin, and SIGINT/SIGTERM as `signal`. */
export function processPolicyIo(): PolicyIo {
  const io = processIo();
  return {
    stdout: io.stdout,
    stderr: io.stderr,
    env: io.env,
    // Read lazily: kit starts listening for signals only when a command asks (`run`).
    get signal() {
      return io.signal;
    },
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of io.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString("utf8");
    },
  };
}
