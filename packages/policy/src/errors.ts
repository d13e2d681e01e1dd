/**
 * Every error the policy engine raises: a stable OPA code, a message and, where known, the
 * source location. Codes are OPA's own so that clients matching on them keep working.
 */
export type RegoErrorCode =
  | "rego_parse_error"
  | "rego_compile_error"
  | "rego_type_error"
  | "rego_unsafe_var_error"
  | "rego_recursion_error"
  | "eval_conflict_error"
  | "eval_type_error"
  | "eval_builtin_error"
  | "eval_cancel_error"
  | "eval_limit_error"
  | "internal_error";

export interface Location {
  file: string;
  row: number;
  col: number;
}

export class RegoError extends Error {
  constructor(
    readonly code: RegoErrorCode,
    message: string,
    readonly location?: Location,
  ) {
    super(message);
    this.name = "RegoError";
  }

  /** `file:row: code: message`, as OPA prints a single error. */
  override toString(): string {
    const where = this.location ? `${this.location.file}:${this.location.row}: ` : "";
    return `${where}${this.code}: ${this.message}`;
  }
}

/** Several compile errors at once, sorted by location. */
export class RegoErrorList extends Error {
  constructor(readonly errors: RegoError[]) {
    super(errors.map((e) => e.toString()).join("\n"));
    this.name = "RegoErrorList";
  }
}

/**
 * Thrown by a builtin for a bad operand type. As in OPA, the expression is undefined unless
 * the query runs with strict builtin errors; then evaluation halts with `eval_type_error`.
 */
export class BuiltinTypeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BuiltinTypeError";
  }
}

/**
 * Thrown by a builtin that cannot produce a result for valid-typed operands (divide by zero,
 * bad regex, bad JSON text): `eval_builtin_error`. Without strict builtin errors the
 * expression is just undefined; with them, evaluation halts.
 */
export class BuiltinError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BuiltinError";
  }
}

/** True for JavaScript's own "Maximum call stack size exceeded". */
export function isStackOverflow(e: unknown): boolean {
  return e instanceof RangeError && /call stack/i.test(e.message);
}

/**
 * The error that aborts a query for a failure that is no builtin's deliberate answer: a
 * stack overflow or any other exception. It must never be read as "undefined", or a `deny`
 * rule could silently stop firing.
 */
export function internalError(e: unknown, where?: string): RegoError {
  if (e instanceof RegoError) return e;
  const text = isStackOverflow(e)
    ? "evaluation exceeded the maximum nesting depth"
    : e instanceof Error
      ? e.message
      : String(e);
  const error = new RegoError("internal_error", where ? `${where}: ${text}` : text);
  // The original stays reachable for the server log and for debugging.
  error.cause = e;
  return error;
}

/**
 * A query building a collection (or string) larger than REGO_MAX_COLLECTION_SIZE: it aborts
 * the query, as a timeout does, so that one request cannot exhaust the server's memory.
 */
export function collectionTooLarge(what: string, size: number, max: number): RegoError {
  return new RegoError(
    "eval_limit_error",
    `${what}: ${size} elements exceed the limit of ${max} (REGO_MAX_COLLECTION_SIZE)`,
  );
}
