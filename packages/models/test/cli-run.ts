/** Runs the `llmsrv` CLI in-process against a test server, capturing what it prints. */
import { Readable } from "node:stream";
import { main } from "../src/cli/main.js";

/** How the run's streams look: a terminal on stdin (typed turns), a terminal of `columns` on stdout. */
export interface CliStreams {
  stdinTty?: boolean;
  stdoutColumns?: number;
}

/** The exit code and the text the CLI wrote to stdout and stderr. */
export async function cli(
  args: string[],
  env: Record<string, string>,
  stdin = "",
  streams: CliStreams = {},
) {
  let stdout = "";
  let stderr = "";
  const input = Readable.from([stdin]);
  if (streams.stdinTty) Object.assign(input, { isTTY: true });
  const tty =
    streams.stdoutColumns === undefined ? {} : { isTTY: true, columns: streams.stdoutColumns };
  const code = await main(args, {
    stdout: { write: (t: string) => (stdout += t), ...tty },
    stderr: { write: (t: string) => (stderr += t) },
    stdin: input,
    signal: new AbortController().signal,
    env,
  });
  return { code, stdout, stderr };
}
