/** Runs the `llmsrv` CLI in-process against a test server, capturing what it prints. */
import { Readable } from "node:stream";
import { main } from "../src/cli/main.js";

/** The exit code and the text the CLI wrote to stdout and stderr. */
export async function cli(args: string[], env: Record<string, string>, stdin = "") {
  let stdout = "";
  let stderr = "";
  const code = await main(args, {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    stdin: Readable.from([stdin]),
    signal: new AbortController().signal,
    env,
  });
  return { code, stdout, stderr };
}
