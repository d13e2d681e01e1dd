/**
 * OPA's compiler error limit (`--max-errors`): a failing stage reports at most `max` errors
 * (when `max` is positive), and once that many are kept OPA adds `error limit reached`.
 */
import { RegoError } from "../errors.js";

/** OPA's default limit (`opa check -m`, the compiler's own default). */
export const DEFAULT_MAX_ERRORS = 10;

/** The first `max` of `errors`, plus OPA's limit error when the limit is reached. */
export function limitErrors(errors: RegoError[], max: number | undefined): RegoError[] {
  if (max === undefined || max <= 0 || errors.length < max) return errors;
  return [...errors.slice(0, max), new RegoError("rego_compile_error", "error limit reached")];
}
