/** Runs `rego` commands in-process with a recording io. */
import type { CliIO } from "../../src/cli/cli-io.js";
import { main } from "../../src/cli/main.js";

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `rego <argv>`; `stdin` feeds --stdin and --stdin-input. */
export async function rego(
  argv: string[],
  options: { stdin?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const io: CliIO = {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    env: options.env ?? {},
    readStdin: async () => options.stdin ?? "",
  };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}
