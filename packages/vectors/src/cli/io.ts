/** The `vectors` CLI's part of kit's contract: its extra exit codes, and commands with usage. */
import { EXIT as SHARED_EXIT, type Command as SharedCommand } from "@quintet/kit";

/** Exit statuses of the CLI (documented in the README): kit's 0, 1, 2, and three of its own. */
export const EXIT = Object.freeze({
  ...SHARED_EXIT,
  /** A load finished but skipped rows whose embedding could not be obtained. */
  skippedRows: 3,
  /** Another process holds the table or the embedded data directory. */
  busy: 4,
  /** Interrupted by SIGINT/SIGTERM (128 + SIGINT); a load keeps nothing half done. */
  interrupted: 130,
} as const);

/** One verb. Its usage is required: a usage error prints it. `run` returns an {@link EXIT}. */
export interface Command extends SharedCommand {
  readonly usage: string;
}
