/**
 * `rego run` without `--server`: the REPL on standard input and output. Prints a banner and
 * a prompt, reads lines until `exit` or the end of input; with `--watch`, changed policy and
 * data files are loaded again between statements (a failed reload is reported on stderr
 * and the last good set kept).
 */
import { createInterface } from "node:readline";
import { packageVersion } from "../../version.js";
import type { PolicyIo } from "../cli-io.js";
import { watchPaths } from "../watch.js";
import { Repl } from "./repl.js";

/** Runs the REPL over `paths`; resolves to the exit code. */
export async function runRepl(
  paths: readonly string[],
  options: { v0: boolean; watch: boolean },
  io: PolicyIo,
  input: NodeJS.ReadableStream = process.stdin,
): Promise<number> {
  const repl = Repl.start(paths, options.v0, {
    out: (t) => io.stdout.write(t),
    err: (t) => io.stderr.write(t),
  });
  if (!repl) return 1;
  io.stdout.write(
    `rego ${packageVersion()}: an OPA-compatible Rego shell\n\nRun 'help' to see a list of commands.\n\n`,
  );
  const watcher = options.watch
    ? watchPaths(paths, () => {
        io.stderr.write(repl.reload());
      })
    : undefined;
  const lines = createInterface({ input, terminal: false });
  try {
    io.stdout.write(repl.prompt());
    for await (const line of lines) {
      if (!(await repl.lineAsync(line))) break;
      io.stdout.write(repl.prompt());
    }
  } finally {
    lines.close();
    watcher?.stop();
  }
  io.stdout.write("\n");
  return 0;
}
