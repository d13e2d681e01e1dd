/**
 * Why the store refused a read or a write, independent of HTTP (as OPA's `storage` errors):
 * `server/error-response.ts` alone maps each code to a status and OPA's API error code.
 */
import type { RegoError } from "../errors.js";

/** What went wrong in the store. */
export type StoreErrorCode =
  /** No document or policy at the path or id (`storage_not_found_error`). */
  | "not_found"
  /** A write below a value that is not an object (`storage_write_conflict_error`). */
  | "write_conflict"
  /** A patch the store cannot apply (`storage_invalid_patch_error`). */
  | "invalid_patch"
  /** A write refused whole: bad module, compile errors, data where a rule is, bundle-owned path. */
  | "invalid_write"
  /** A policy deletion that would break the policies left. */
  | "invalid_operation";

export class StoreError extends Error {
  constructor(
    readonly code: StoreErrorCode,
    message: string,
    /** The parse or compile errors behind an `invalid_write` or `invalid_operation`. */
    readonly errors: readonly RegoError[] = [],
  ) {
    super(message);
    this.name = "StoreError";
  }
}

/** A refused write: the message and the engine errors behind it. */
export function invalidWrite(message: string, errors: readonly RegoError[] = []): StoreError {
  return new StoreError("invalid_write", message, errors);
}
