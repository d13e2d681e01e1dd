/** Files that could not be read, parsed as data or merged: every problem, one per entry. */
export class LoadError extends Error {
  readonly code = "load_error";
  constructor(readonly problems: string[]) {
    const head =
      problems.length === 1
        ? "1 error occurred during loading"
        : `${problems.length} errors occurred during loading`;
    super(`${head}: ${problems.join("\n")}`);
    this.name = "LoadError";
  }
}
