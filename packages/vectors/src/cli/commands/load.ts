/** `vectors load [--dataset <file>] [--append]`: embeds a dataset and stores it. */
import { parseArgs } from "node:util";
import { loadConfig } from "../../config.js";
import { DatasetError } from "../../errors.js";
import { loadDataset } from "../../loader/load.js";
import { usageErrors } from "../args.js";
import { formatLoadSummary } from "../format.js";
import type { Command } from "../io.js";
import { createProgressReporter } from "../progress.js";
import { createEmbedder, openStore } from "../session.js";

export const loadCommand: Command = {
  name: "load",
  summary: "embed the dataset's summaries and store them in docs_vector",
  usage:
    "vectors load [--dataset <file>] [--append]\n" +
    "  --dataset <file>  dataset to load (default: DOCS_DATASET, else the shipped sample)\n" +
    "  --append          keep the existing rows and continue their ids (default: start empty)",
  async run(argv, io) {
    const { values } = usageErrors(() =>
      parseArgs({
        args: [...argv],
        options: {
          dataset: { type: "string" },
          append: { type: "boolean" },
          help: { type: "boolean", short: "h" },
        },
        allowPositionals: false,
      }),
    );
    if (values.help) {
      io.stdout.write(`${this.usage}\n`);
      return 0;
    }
    const config = loadConfig(io.env);
    const dataset = values.dataset ?? config.dataset;
    const append = values.append ?? false;
    const store = await openStore(config);
    const progress = createProgressReporter(io.stderr);
    try {
      io.stderr.write(
        `loading ${dataset} (${append ? "appending to" : "replacing"} docs_vector)\n`,
      );
      const summary = await loadDataset(store, createEmbedder(config), {
        dataset,
        append,
        batchSize: config.batchSize,
        concurrency: config.concurrency,
        onProgress: (p) => progress.update(p),
      });
      progress.finish();
      io.stdout.write(formatLoadSummary(summary));
      // A run that could store none of its rows failed; skipped rows alone do not fail it.
      return summary.stored > 0 || summary.dataRows === 0 ? 0 : 1;
    } catch (error) {
      progress.finish();
      if (error instanceof DatasetError && values.dataset === undefined && io.env.DOCS_DATASET) {
        throw new DatasetError(`DOCS_DATASET: ${error.message}`, { cause: error });
      }
      throw error;
    } finally {
      await store.close();
    }
  },
};
