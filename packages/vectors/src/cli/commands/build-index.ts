/** `vectors index [--m N] [--ef-construction N] [--distance d]`: builds an HNSW index. */
import { parseArgs } from "node:util";
import { loadConfig } from "../../config.js";
import { UsageError } from "../../errors.js";
import { lockTable } from "../../store/load-lock.js";
import { type Distance, distances } from "../../store/sql.js";
import { intOption, usageErrors } from "../args.js";
import type { Command } from "../io.js";
import { openStore } from "../session.js";

export const indexCommand: Command = {
  name: "index",
  summary: "build an HNSW index (halfvec expression when EMBED_DIM > 2000)",
  usage:
    "vectors index [--m <n>] [--ef-construction <n>] [--distance l2|cosine|ip]\n" +
    "  --m <n>                HNSW links per node (default 16)\n" +
    "  --ef-construction <n>  candidate list size while building (default 64)\n" +
    "  --distance <name>      distance the index serves (default l2, the spec's <->)",
  async run(argv, io) {
    const { values } = usageErrors(() =>
      parseArgs({
        args: [...argv],
        options: {
          m: { type: "string" },
          "ef-construction": { type: "string" },
          distance: { type: "string" },
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
    const distance = (values.distance ?? "l2") as Distance;
    if (!distances.includes(distance)) {
      throw new UsageError(`--distance must be one of ${distances.join(", ")}, got "${distance}"`);
    }
    const config = loadConfig(io.env);
    const store = await openStore(config, io, { create: false });
    try {
      await lockTable(store.client, "build the index");
      const started = Date.now();
      io.stderr.write(`building with maintenance_work_mem=${config.maintenanceWorkMem}\n`);
      const info = await store.buildIndex({ m, efConstruction, distance });
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      io.stdout.write(`index ${info.name} ready in ${seconds} s\n${info.definition}\n`);
      return 0;
    } finally {
      await store.close();
    }
  },
};
