// `llmsrv cp SOURCE DESTINATION`: copies a model under a new name.
import { parseArgs } from "node:util";
import { clientFor } from "../api-client.js";
import { EXIT, type ModelsCommand, reportFailure, tryParse } from "../io.js";

/** `llmsrv cp SOURCE DESTINATION`. */
export const cpCommand: ModelsCommand = {
  name: "cp",
  summary: "Copy a model",
  async run(argv, io) {
    const parsed = tryParse(io, "Usage: llmsrv cp SOURCE DESTINATION", () =>
      parseArgs({ args: [...argv], allowPositionals: true }),
    );
    const [source, destination] = parsed?.positionals ?? [];
    if (!source || !destination) {
      io.stderr.write("Usage: llmsrv cp SOURCE DESTINATION\n");
      return EXIT.usage;
    }
    return reportFailure(io, async () => {
      await clientFor(io.env).request("POST", "/api/copy", { source, destination });
      io.stdout.write(`copied '${source}' to '${destination}'\n`);
      return EXIT.ok;
    });
  },
};
