/** Runs the `vectors` CLI in-process with captured output and a given environment. */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../src/cli/main.js";

/** Where a run that names no store keeps its default one: never the real home's. */
let scratchDataHome: string | undefined;

/** The environment with XDG_DATA_HOME in a scratch folder when nothing else says where. */
function sandboxed(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (env.VECTORS_DATA_DIR || env.XDG_DATA_HOME || env.PG_VECTOR_DB) return env;
  scratchDataHome ??= mkdtempSync(join(tmpdir(), "vectors-xdg-"));
  return { ...env, XDG_DATA_HOME: scratchDataHome };
}

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
    env: sandboxed(env),
    signal: new AbortController().signal,
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
