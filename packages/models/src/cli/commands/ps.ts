// `llmsrv ps`: the loaded models as a table.
import { parseArgs } from "node:util";
import type { PsResponse } from "../../api/types.js";
import { clientFor } from "../api-client.js";
import { formatBytes, formatRelative, formatTable } from "../format.js";
import { EXIT, type ModelsCommand, reportFailure, tryParse } from "../io.js";
import { processorLabel } from "../processor.js";

function until(expires: string): string {
  const date = new Date(expires);
  return date.getUTCFullYear() > 2200 ? "Forever" : formatRelative(date);
}

/** `llmsrv ps`: loaded models, with their active and queued requests. */
export const psCommand: ModelsCommand = {
  name: "ps",
  summary: "List loaded models",
  async run(argv, io) {
    if (!tryParse(io, "Usage: llmsrv ps", () => parseArgs({ args: [...argv] }))) return EXIT.usage;
    return reportFailure(io, async () => {
      const ps = await clientFor(io.env).json<PsResponse>("GET", "/api/ps");
      const rows = ps.models.map((m) => [
        m.name,
        m.digest.slice(0, 12),
        formatBytes(m.size),
        processorLabel(m.size, m.size_vram),
        String(m.context_length),
        String(m.active ?? 0),
        String(m.queued ?? 0),
        until(m.expires_at),
      ]);
      io.stdout.write(
        formatTable(
          ["NAME", "ID", "SIZE", "PROCESSOR", "CONTEXT", "ACTIVE", "QUEUED", "UNTIL"],
          rows,
        ),
      );
      return EXIT.ok;
    });
  },
};
