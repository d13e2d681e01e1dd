/** `vectors load [--dataset <file>] [--append]`: embeds a dataset and stores it. */
import { parseArgs } from "node:util";
import { loadConfig } from "../../config.js";
import { DatasetError } from "../../errors.js";
import { type LoadSummary, loadDataset } from "../../loader/load.js";
import { usageErrors } from "../args.js";
import { formatLoadSummary } from "../format.js";
import { type Command, EXIT } from "../io.js";
import { createProgressReporter } from "../progress.js";
import { createEmbedder, openStore } from "../session.js";

/**
 * 0 when complete, 3 when rows went without an embedding, 1 when rows failed and none of the
 * dataset is in the table (nothing stored now or before).
 */
export function loadExitCode(summary: LoadSummary): number {
  const nothing = summary.stored === 0 && summary.alreadyStored === 0;
  if (nothing && summary.embeddingFailures > 0) return EXIT.failure;
  return summary.embeddingFailures > 0 ? EXIT.skippedRows : EXIT.ok;
}

export const loadCommand: Command = {
  name: "load",
  summary: "embed the dataset's summaries and store them in docs_vector",
  usage:
    "vectors load [--dataset <file>] [--append]\n" +
    "  --dataset <file>  dataset to load (default: DOCS_DATASET, else the shipped sample)\n" +
    "  --append          keep the existing rows and add the dataset's rows not stored yet\n" +
    "                    (same title and summary), continuing their ids; resumes a partial load\n" +
    "  exit status: 0 done, 1 failed or stopped (the table keeps its previous rows), 2 usage,\n" +
    "               3 done but rows skipped for want of an embedding, 4 busy, 130 interrupted",
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
    const store = await openStore(config, io);
    const progress = createProgressReporter(io.stderr);
    // Ctrl-C (or SIGTERM) from here on stops the load cleanly; a second one ends the process
    // at once (kit's processIo starts listening when the signal is first read).
    const interrupted = io.signal;
    try {
      io.stderr.write(
        `loading ${dataset} (${append ? "appending to" : "replacing"} docs_vector)\n`,
      );
      const summary = await loadDataset(store, createEmbedder(config), {
        dataset,
        append,
        batchSize: config.batchSize,
        concurrency: config.concurrency,
        maxFailedBatches: config.maxFailedBatches,
        signal: interrupted,
        onProgress: (p) => progress.update(p),
        log: (line) => io.stderr.write(`${line}\n`),
      });
      progress.finish();
      io.stdout.write(formatLoadSummary(summary));
      return loadExitCode(summary);
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
