/** Runs the `vectors` CLI in-process with captured output and a given environment. */
import { runCli } from "../src/cli/main.js";

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs one command line; `tty` makes stderr claim to be a terminal (progress bar). */
export async function runVectors(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  options: { tty?: boolean } = {},
): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  const code = await runCli(argv, {
    env,
    stdout: {
      write: (text: string) => {
        stdout += text;
      },
    },
    stderr: {
      isTTY: options.tty ?? false,
      write: (text: string) => {
        stderr += text;
      },
    },
  });
  return { code, stdout, stderr };
}
