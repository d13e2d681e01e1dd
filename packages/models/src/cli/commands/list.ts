// `llmsrv list [prefix]`: the stored models as a table.
import { parseArgs } from "node:util";
import type { TagsResponse } from "../../api/types.js";
import { clientFor } from "../api-client.js";
import { formatBytes, formatRelative, formatTable } from "../format.js";
import { EXIT, type ModelsCommand, reportFailure, tryParse } from "../io.js";

/** `llmsrv list [prefix]`: NAME ID SIZE MODIFIED. */
export const listCommand: ModelsCommand = {
  name: "list",
  aliases: ["ls"],
  summary: "List stored models",
  async run(argv, io) {
    const parsed = tryParse(io, "Usage: llmsrv list [prefix]", () =>
      parseArgs({ args: [...argv], allowPositionals: true }),
    );
    if (!parsed) return EXIT.usage;
    const prefix = parsed.positionals[0] ?? "";
    return reportFailure(io, async () => {
      const tags = await clientFor(io.env).json<TagsResponse>("GET", "/api/tags");
      const rows = tags.models
        .filter((m) => m.name.startsWith(prefix))
        .map((m) => [
          m.name,
          m.digest.slice(0, 12),
          formatBytes(m.size),
          formatRelative(new Date(m.modified_at)),
        ]);
      io.stdout.write(formatTable(["NAME", "ID", "SIZE", "MODIFIED"], rows));
      return EXIT.ok;
    });
  },
};
