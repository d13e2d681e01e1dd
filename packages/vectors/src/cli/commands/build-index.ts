/** `vectors index [--m N] [--ef-construction N]`: builds the approximate (HNSW) index. */
import { parseArgs } from "node:util";
import { loadConfig } from "../../config.js";
import { intOption, usageErrors } from "../args.js";
import type { Command } from "../io.js";
import { openStore } from "../session.js";

export const indexCommand: Command = {
  name: "index",
  summary: "build the HNSW index (halfvec expression when EMBED_DIM > 2000)",
  usage:
    "vectors index [--m <n>] [--ef-construction <n>]\n" +
    "  --m <n>                HNSW links per node (default 16)\n" +
    "  --ef-construction <n>  candidate list size while building (default 64)",
  async run(argv, io) {
    const { values } = usageErrors(() =>
      parseArgs({
        args: [...argv],
        options: {
          m: { type: "string" },
          "ef-construction": { type: "string" },
          help: { type: "boolean", short: "h" },
        },
        allowPositionals: false,
      }),
    );
    if (values.help) {
      io.stdout.write(`${this.usage}\n`);
      return 0;
    }
    const m = intOption("m", values.m, 2, 100);
    const efConstruction = intOption("ef-construction", values["ef-construction"], 4, 1000);
    const store = await openStore(loadConfig(io.env));
    try {
      const started = Date.now();
      const info = await store.buildIndex({ m, efConstruction });
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      io.stdout.write(`index ${info.name} ready in ${seconds} s\n${info.definition}\n`);
      return 0;
    } finally {
      await store.close();
    }
  },
};
