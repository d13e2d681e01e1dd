// What a CLI command is and gets: streams, environment, exit codes, usage-error handling.
import type { Readable } from "node:stream";

/** Streams and environment a command uses; injected so tests run commands in-process. */
export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  stdin: Readable;
  env: Readonly<Record<string, string | undefined>>;
  /** Aborted to stop long-running commands (serve, interactive run). */
  signal?: AbortSignal;
}

/** A CLI command: `run` returns the exit code (0 ok, 1 failure, 2 usage). */
export interface Command {
  name: string;
  /** Other names the command answers to (`ls` for `list`). */
  aliases?: readonly string[];
  summary: string;
  run(argv: string[], io: CliIo): Promise<number>;
}

/** Exit codes. */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

/** Parses argv with node:util parseArgs; usage errors print and return undefined. */
export function tryParse<T>(io: CliIo, usage: string, parse: () => T): T | undefined {
  try {
    return parse();
  } catch (e) {
    io.stderr.write(`${(e as Error).message}\n${usage}\n`);
    return undefined;
  }
}

/** Runs a command body, printing `Error: <message>` and returning 1 on failure. */
export async function reportFailure(io: CliIo, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (e) {
    io.stderr.write(`Error: ${(e as Error).message}\n`);
    return EXIT.failure;
  }
}
