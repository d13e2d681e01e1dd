/** processIo: the real process's streams, environment and stop signal, as a CliIo. */
import type { Readable } from "node:stream";
import type { CliIo } from "./cli-io.js";
import { type StopSignalOptions, stopSignal } from "./stop-signal.js";

/**
 * The io a binary hands its dispatch table. `signal` starts listening for SIGINT/SIGTERM
 * the first time a command reads it, so a command that never does (a one-shot query) keeps
 * Node's default: Ctrl-C ends it at once. `stdin` is only touched when read too.
 */
export function processIo(options: StopSignalOptions = {}): CliIo & { readonly stdin: Readable } {
  let signal: AbortSignal | undefined;
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    get signal() {
      signal ??= stopSignal(options);
      return signal;
    },
    get stdin() {
      return process.stdin;
    },
  };
}
