#!/usr/bin/env node
/**
 * Entry point of the `notes` binary: runs `cli/main.ts` with the real process streams.
 */
import { processIo } from "@quintet/kit";
import { main } from "./cli/main.js";

main(process.argv.slice(2), processIo()).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `notes: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
