import { ConfigError } from "@quintet/kit";
import { type GreeterConfig, loadConfig } from "./config.js";

/** What a command may touch, injected so tests run commands in-process. */
export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  env: NodeJS.ProcessEnv;
  /** Aborted when the process is asked to stop (SIGINT/SIGTERM). */
  signal: AbortSignal;
}

export interface Command {
  name: string;
  summary: string;
  /** Resolves to the exit code: 0 ok, 1 failure, 2 usage. */
  run(argv: string[], io: CliIO): Promise<number>;
}

/** Loads the configuration, or prints every problem and returns undefined (exit 1). */
export function configOrReport(io: CliIO): GreeterConfig | undefined {
  try {
    return loadConfig(io.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr(`greeter: ${error.message}\n`);
      return undefined;
    }
    throw error;
  }
}
