// Models' part of kit's CLI contract, and the helpers its commands share for errors.
import type { Readable } from "node:stream";
import { type CliIo, type Command, EXIT } from "@quintet/kit";

export { EXIT };

/** Kit's io with standard input always there: interactive `run` reads it. */
export interface ModelsIo extends CliIo {
  readonly stdin: Readable;
}

/** A models command: `run` returns the exit code (0 ok, 1 failure, 2 usage). */
export type ModelsCommand = Command<ModelsIo>;

/** Parses argv with node:util parseArgs; usage errors print and return undefined. */
export function tryParse<T>(io: ModelsIo, usage: string, parse: () => T): T | undefined {
  try {
    return parse();
  } catch (e) {
    io.stderr.write(`${(e as Error).message}\n${usage}\n`);
    return undefined;
  }
}

/** Runs a command body, printing `Error: <message>` and returning 1 on failure. */
export async function reportFailure(io: ModelsIo, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (e) {
    io.stderr.write(`Error: ${(e as Error).message}\n`);
    return EXIT.failure;
  }
}
