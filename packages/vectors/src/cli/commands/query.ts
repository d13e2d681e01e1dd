/** `vectors query "<text>" [-k N] [--distance l2|cosine|ip] [--json] [--exact]`. */
import { parseArgs } from "node:util";
import { loadConfig } from "../../config.js";
import { UsageError } from "../../errors.js";
import { type Distance, distances } from "../../store/sql.js";
import { intOption, usageErrors } from "../args.js";
import { formatNeighbourTable } from "../format.js";
import type { Command } from "../io.js";
import { createEmbedder, openStore } from "../session.js";

/** Most rows one query may ask for. */
export const maxK = 1000;

function distanceOption(text: string | undefined): Distance {
  if (text === undefined) return "l2";
  if (!distances.includes(text as Distance)) {
    throw new UsageError(`--distance must be one of ${distances.join(", ")}, got "${text}"`);
  }
  return text as Distance;
}

export const queryCommand: Command = {
  name: "query",
  summary: "print the k (default 3) documents nearest to a text (table, or --json)",
  usage:
    'vectors query "<text>" [-k <n>] [--distance l2|cosine|ip] [--json] [--exact]\n' +
    "  -k <n>             how many documents (1-1000, default 3)\n" +
    "  --distance <name>  l2 (Euclidean, <->, default), cosine (<=>) or ip (negative inner\n" +
    "                     product, <#>); uses the index built for it, else scans exactly\n" +
    "  --json             print an array of {doc_id, doc_source, doc_content, distance}\n" +
    "  --exact            scan every row even when an approximate index exists",
  async run(argv, io) {
    const { values, positionals } = usageErrors(() =>
      parseArgs({
        args: [...argv],
        options: {
          k: { type: "string", short: "k" },
          distance: { type: "string" },
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
    const k = intOption("k", values.k, 1, maxK) ?? 3;
    const distance = distanceOption(values.distance);
    const config = loadConfig(io.env);
    const store = await openStore(config, io, { create: false });
    try {
      // Checked before embedding so a missing table is reported even with the model server down.
      await store.requireTable();
      const embedding = await createEmbedder(config).embedOne(positionals[0] as string);
      const indexed = !values.exact && (await store.indexInfo(distance)) !== undefined;
      if (!values.exact && !indexed && (await store.hnswIndexes()).size > 0) {
        // An index of another distance cannot order by this one: say why the query is slower.
        io.stderr.write(
          `note: no HNSW index for ${distance} distance, so every row is scanned ` +
            `(\`vectors index --distance ${distance}\` builds one)\n`,
        );
      }
      const rows = await store.query(embedding, {
        mode: values.exact ? "exact" : undefined,
        k,
        distance,
      });
      io.stdout.write(
        values.json ? `${JSON.stringify(rows, null, 2)}\n` : formatNeighbourTable(rows),
      );
      return 0;
    } finally {
      await store.close();
    }
  },
};
