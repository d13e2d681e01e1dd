/** `vectors query "<text>" [--json] [--exact]`: the three documents nearest to a text. */
import { parseArgs } from "node:util";
import { loadConfig } from "../../config.js";
import { UsageError } from "../../errors.js";
import { usageErrors } from "../args.js";
import { formatNeighbourTable } from "../format.js";
import type { Command } from "../io.js";
import { createEmbedder, openStore } from "../session.js";

export const queryCommand: Command = {
  name: "query",
  summary: "print the three documents nearest to a text (table, or --json)",
  usage:
    'vectors query "<text>" [--json] [--exact]\n' +
    "  --json   print an array of {doc_id, doc_source, doc_content, distance}, nearest first\n" +
    "  --exact  scan every row even when an approximate index exists",
  async run(argv, io) {
    const { values, positionals } = usageErrors(() =>
      parseArgs({
        args: [...argv],
        options: {
          json: { type: "boolean" },
          exact: { type: "boolean" },
          help: { type: "boolean", short: "h" },
        },
        allowPositionals: true,
      }),
    );
    if (values.help) {
      io.stdout.write(`${this.usage}\n`);
      return 0;
    }
    if (positionals.length !== 1 || positionals[0]?.trim() === "") {
      throw new UsageError(
        'query takes exactly one non-empty text argument: vectors query "<text>"',
      );
    }
    const config = loadConfig(io.env);
    const store = await openStore(config);
    try {
      // Checked before embedding so a missing table is reported even with the model server down.
      await store.requireTable();
      const embedding = await createEmbedder(config).embedOne(positionals[0] as string);
      const rows = await store.query(embedding, values.exact ? "exact" : undefined);
      io.stdout.write(
        values.json ? `${JSON.stringify(rows, null, 2)}\n` : formatNeighbourTable(rows),
      );
      return 0;
    } finally {
      await store.close();
    }
  },
};
