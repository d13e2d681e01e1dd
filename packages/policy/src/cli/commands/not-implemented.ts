/** Commands of OPA's CLI that this engine does not have yet: they say so and exit 2. */
import type { Command } from "../cli-io.js";

function notImplemented(name: string, summary: string): Command {
  return {
    name,
    summary: `${summary} (not implemented yet)`,
    usage: `Usage: rego ${name} ... (not implemented yet)\n`,
    run: async (_argv, io) => {
      io.stderr(`error: rego ${name} is not implemented yet\n`);
      return 2;
    },
  };
}

/** sign. */
export const notImplementedCommands: Command[] = [notImplemented("sign", "Sign a bundle")];
