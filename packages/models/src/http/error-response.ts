// Maps errors to HTTP status codes and Ollama's `{"error": ...}` bodies.
import type { LlmsrvErrorCode } from "../errors.js";
import { LlmsrvError, messageOf } from "../errors.js";

const STATUS: Readonly<Record<LlmsrvErrorCode, number>> = {
  config_invalid: 500,
  bad_request: 400,
  invalid_json: 400,
  invalid_options: 400,
  invalid_model_name: 400,
  model_not_found: 404,
  not_gguf: 400,
  unsupported_capability: 400,
  unauthorized: 401,
  route_not_found: 404,
  method_not_allowed: 405,
  server_busy: 503,
  request_canceled: 499,
  insufficient_memory: 500,
  model_load_failed: 500,
  invalid_digest: 400,
  digest_mismatch: 400,
  blob_not_found: 404,
  modelfile_invalid: 400,
  not_implemented: 501,
  body_too_large: 413,
  internal: 500,
};

/** An error as the HTTP layer sends it. */
export interface HttpError {
  status: number;
  message: string;
  code: LlmsrvErrorCode;
}

/** The one mapping from errors to HTTP status codes. Unknown errors are 500. */
export function toHttpError(e: unknown): HttpError {
  if (e instanceof LlmsrvError) return { status: STATUS[e.code], message: e.message, code: e.code };
  return { status: 500, message: messageOf(e), code: "internal" };
}

/** Ollama's error body: `{"error": "..."}`. */
export function ollamaErrorBody(err: HttpError): { error: string } {
  return { error: err.message };
}

/** OpenAI's error body, with the type OpenAI clients expect for the status. */
export function openaiErrorBody(err: HttpError): {
  error: { message: string; type: string; param: null; code: string | null };
} {
  const type =
    err.status === 400
      ? "invalid_request_error"
      : err.status === 404
        ? "not_found_error"
        : err.status === 401
          ? "authentication_error"
          : "api_error";
  return {
    error: {
      message: err.message,
      type,
      param: null,
      code: err.status === 401 ? "invalid_api_key" : null,
    },
  };
}
