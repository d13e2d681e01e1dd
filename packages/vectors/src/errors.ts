/**
 * Errors of the vector store. Every error the package throws is a {@link VectorsError} with a
 * stable snake_case `code`, so the CLI (and any caller) can branch on the kind of failure.
 */

/** Base of every error thrown by this package. */
export class VectorsError extends Error {
  constructor(
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "VectorsError";
  }
}

/** Every invalid configuration variable, reported together; each line names its variable. */
export class ConfigError extends VectorsError {
  constructor(readonly problems: readonly string[]) {
    super("invalid_config", `invalid configuration:\n  ${problems.join("\n  ")}`);
    this.name = "ConfigError";
  }
}

/** The table or an embedding has a dimension other than the configured one. */
export class DimensionMismatchError extends VectorsError {
  constructor(
    readonly expected: number,
    readonly actual: number,
    what: string,
  ) {
    super(
      "dimension_mismatch",
      `${what} has dimension ${actual} but EMBED_DIM is ${expected}; ` +
        "set EMBED_DIM to match, or run `vectors cleanup` to drop the table",
    );
    this.name = "DimensionMismatchError";
  }
}

/** The `docs_vector` table does not exist (nothing was loaded yet). */
export class TableMissingError extends VectorsError {
  /** @param where which database was looked in, e.g. "in embedded PGlite at /dir". */
  constructor(readonly where?: string) {
    super(
      "table_missing",
      `table docs_vector does not exist${where ? ` ${where}` : ""}; run \`vectors load\` first`,
    );
    this.name = "TableMissingError";
  }
}

/** The dataset file could not be read. */
export class DatasetError extends VectorsError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("dataset_unreadable", message, options);
    this.name = "DatasetError";
  }
}

/** An embedding could not be obtained from the embeddings endpoint (after any retries). */
export class EmbeddingError extends VectorsError {
  constructor(
    message: string,
    /** HTTP status of the last answer, when there was one. */
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super("embedding_failed", message, options);
    this.name = "EmbeddingError";
  }
}

/** The database refused or failed a statement. */
export class DatabaseError extends VectorsError {
  constructor(
    message: string,
    /** PostgreSQL SQLSTATE of the failure, when the server gave one (e.g. 42P01). */
    readonly sqlState?: string,
    options?: { cause?: unknown },
  ) {
    super("database_error", message, options);
    this.name = "DatabaseError";
  }
}

/** A command line that cannot be understood (exit status 2). */
export class UsageError extends VectorsError {
  constructor(message: string) {
    super("usage", message);
    this.name = "UsageError";
  }
}

/** Another process holds the table (a load, index build or cleanup) or the data directory. */
export class BusyError extends VectorsError {
  constructor(message: string) {
    super("busy", message);
    this.name = "BusyError";
  }
}

/** A load that stopped before it was complete; `state` says what the table holds now. */
export class LoadAbortedError extends VectorsError {
  constructor(
    readonly reason: string,
    readonly state: string,
    /** True when the user interrupted it (SIGINT/SIGTERM). */
    readonly interrupted: boolean,
    options?: { cause?: unknown },
  ) {
    super("load_aborted", `load aborted: ${reason}\n${state}`, options);
    this.name = "LoadAbortedError";
  }
}

/** The message of any thrown value, for diagnostics. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
