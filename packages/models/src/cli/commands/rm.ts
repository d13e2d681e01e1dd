// `llmsrv rm MODEL...`: deletes models.
import { parseArgs } from "node:util";
import { clientFor } from "../api-client.js";
import { EXIT, type ModelsCommand, reportFailure, tryParse } from "../io.js";

/** `llmsrv rm MODEL...`: deletes models (unloading them first). */
export const rmCommand: ModelsCommand = {
  name: "rm",
  summary: "Remove models",
  async run(argv, io) {
    const parsed = tryParse(io, "Usage: llmsrv rm MODEL...", () =>
      parseArgs({ args: [...argv], allowPositionals: true }),
    );
    if (!parsed || parsed.positionals.length === 0) {
      if (parsed) io.stderr.write("Usage: llmsrv rm MODEL...\n");
      return EXIT.usage;
    }
    return reportFailure(io, async () => {
      const client = clientFor(io.env);
      for (const model of parsed.positionals) {
        await client.request("DELETE", "/api/delete", { model });
        io.stdout.write(`deleted '${model}'\n`);
      }
      return EXIT.ok;
    });
  },
};
