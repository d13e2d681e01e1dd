/** The contract between a CLI's dispatch table and its commands: io, command, exit codes. */
import type { Readable } from "node:stream";
import type { TextSink } from "./text-sink.js";

/**
 * What a command may touch besides its arguments, injected so tests run commands in-process
 * and read what they printed. A package whose commands need more extends it (models: a
 * required `stdin`; quintet: `root`; policy: `readStdin()`, `onListening(url)`).
 *
 * Field names are those most packages already used (`stdout.write`, `env`, `signal`), so
 * adopting it changed the fewest lines.
 */
export interface CliIo {
  /** Results. */
  readonly stdout: TextSink;
  /** Diagnostics and logs. */
  readonly stderr: TextSink;
  /** The environment, read only through the package's config.ts. */
  readonly env: NodeJS.ProcessEnv;
  /**
   * Aborted when the process is asked to stop (SIGINT/SIGTERM), with the signal's name as
   * `reason`; long-running commands (servers, loads) stop cleanly on it.
   */
  readonly signal: AbortSignal;
  /** Standard input, for commands that read it. */
  readonly stdin?: Readable;
}

/** One verb of a CLI: `<binary> <name> [argv...]`. */
export interface Command<Io extends CliIo = CliIo> {
  readonly name: string;
  /** One line for the binary's help. */
  readonly summary: string;
  /** Usage text for `<name> --help` and usage errors. */
  readonly usage?: string;
  /** Other names the command answers to (`ls` for `list`). */
  readonly aliases?: readonly string[];
  /** Runs the command; resolves to the exit code (see {@link EXIT}). */
  run(argv: readonly string[], io: Io): Promise<number>;
}

/** Exit codes every CLI shares; a package adds its own above 2 (vectors: 3, 4, 130). */
export const EXIT = Object.freeze({ ok: 0, failure: 1, usage: 2 } as const);
