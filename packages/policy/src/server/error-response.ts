/**
 * The one place that maps an error to an HTTP status and body, following OPA's rules:
 * request problems 400 `invalid_parameter`, query parse/compile errors 400 with the `rego_*`
 * items, evaluation errors 500 `internal_error` with the `eval_*` item, store refusals as
 * OPA's server/writer answers storage errors, anything else 500.
 */
import { RegoError, RegoErrorList } from "../errors.js";
import { StoreError, type StoreErrorCode } from "../store/store-error.js";
import { ApiError } from "./api-error.js";

/** One item of an error body's `errors` array. */
export interface ErrorItem {
  code: string;
  message: string;
  location?: { file: string; row: number; col: number };
}

/** OPA's error body; `errors` is left out when empty. */
export interface ErrorBody {
  code: string;
  message: string;
  errors?: ErrorItem[];
}

/** Status plus body; a body of undefined means an empty response (405) or plain text (404). */
export interface HttpError {
  status: number;
  body?: ErrorBody;
  text?: string;
}

/** The `errors` item for one engine error. */
export function errorItem(e: RegoError): ErrorItem {
  const item: ErrorItem = { code: e.code, message: e.message };
  if (e.location)
    item.location = { file: e.location.file, row: e.location.row, col: e.location.col };
  return item;
}

function body(code: string, message: string, errors: readonly RegoError[]): ErrorBody {
  return errors.length > 0 ? { code, message, errors: errors.map(errorItem) } : { code, message };
}

function isEvalError(e: RegoError): boolean {
  return e.code.startsWith("eval_") || e.code === "internal_error";
}

function regoErrors(errors: readonly RegoError[]): HttpError {
  if (errors.some(isEvalError)) {
    return {
      status: 500,
      body: body("internal_error", "error(s) occurred while evaluating query", errors),
    };
  }
  const parse = errors.every((e) => e.code === "rego_parse_error");
  const message = parse
    ? "error(s) occurred while parsing query"
    : "error(s) occurred while compiling query";
  return { status: 400, body: body("invalid_parameter", message, errors) };
}

/** Status and OPA API code of each store error, as OPA's writer maps storage errors. */
const storeAnswers: Record<StoreErrorCode, { status: number; code: string }> = {
  not_found: { status: 404, code: "resource_not_found" },
  write_conflict: { status: 404, code: "resource_conflict" },
  invalid_patch: { status: 400, code: "invalid_parameter" },
  invalid_write: { status: 400, code: "invalid_parameter" },
  invalid_operation: { status: 400, code: "invalid_operation" },
};

/** Maps any error thrown while serving a request to its HTTP answer. */
export function toHttpError(e: unknown): HttpError {
  if (e instanceof ApiError) {
    switch (e.kind) {
      case "bad_request":
        return { status: 400, body: body(e.code, e.message, e.errors) };
      case "too_large":
        return { status: 413, body: body(e.code, e.message, e.errors) };
      case "missing_resource":
        return { status: 404, body: body(e.code, e.message, e.errors) };
      case "method_not_allowed":
        return { status: 405 };
      case "not_found":
        return { status: 404, text: `${e.message}\n` };
    }
  }
  if (e instanceof StoreError) {
    const { status, code } = storeAnswers[e.code];
    return { status, body: body(code, e.message, e.errors) };
  }
  if (e instanceof RegoErrorList) return regoErrors(e.errors);
  if (e instanceof RegoError) return regoErrors([e]);
  const message = e instanceof Error ? e.message : String(e);
  return { status: 500, body: { code: "internal_error", message } };
}
