/** Command-line usage errors: node:util parseArgs failures become UsageError (exit 2). */

/** Thrown for bad command-line usage; commands answer it with exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/**
 * Runs a parseArgs call, turning its exceptions into UsageError.
 * @example const { values } = asUsage(() => parseArgs({ args, options, strict: true }));
 */
export function asUsage<T>(parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}
