/** `vectors cleanup`: drops docs_vector if it exists, commits and closes. */
import { parseArgs } from "node:util";
import { loadConfig } from "../../config.js";
import { TableMissingError } from "../../errors.js";
import { lockTable } from "../../store/load-lock.js";
import type { VectorStore } from "../../store/vector-store.js";
import { usageErrors } from "../args.js";
import type { Command } from "../io.js";
import { openStore } from "../session.js";

export const cleanupCommand: Command = {
  name: "cleanup",
  summary: "drop the docs_vector table if it exists",
  usage: "vectors cleanup",
  async run(argv, io) {
    const { values } = usageErrors(() =>
      parseArgs({
        args: [...argv],
        options: { help: { type: "boolean", short: "h" } },
        allowPositionals: false,
      }),
    );
    if (values.help) {
      io.stdout.write(`${this.usage}\n`);
      return 0;
    }
    let store: VectorStore;
    try {
      store = await openStore(loadConfig(io.env), io, { create: false });
    } catch (error) {
      // No embedded database at all: nothing to drop, and nothing is created to say so.
      if (!(error instanceof TableMissingError)) throw error;
      io.stdout.write(`table docs_vector did not exist ${error.where}\n`);
      return 0;
    }
    try {
      await lockTable(store.client, "drop the table");
    } catch (error) {
      await store.close();
      throw error;
    }
    const existed = await store.cleanup();
    io.stdout.write(existed ? "dropped table docs_vector\n" : "table docs_vector did not exist\n");
    return 0;
  },
};
