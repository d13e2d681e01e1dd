/** configOrReport: the commands' way to load the configuration or say what is wrong with it. */
import { type CliIo, ConfigError } from "@quintet/kit";
import { type GreeterConfig, loadConfig } from "./config.js";

/** Loads the configuration, or prints every problem and returns undefined (exit 1). */
export function configOrReport(io: CliIo): GreeterConfig | undefined {
  try {
    return loadConfig(io.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr.write(`greeter: ${error.message}\n`);
      return undefined;
    }
    throw error;
  }
}
