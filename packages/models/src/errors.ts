/**
 * The package's error catalogue. Every error thrown on purpose is an `LlmsrvError` with a
 * stable snake_case `code`; `http/error-response.ts` maps codes to HTTP status in one place.
 */

/** Stable codes of the errors this package raises. */
export type LlmsrvErrorCode =
  | "config_invalid"
  | "bad_request"
  | "invalid_json"
  | "invalid_options"
  | "invalid_model_name"
  | "model_not_found"
  | "not_gguf"
  | "unsupported_capability"
  | "unauthorized"
  | "route_not_found"
  | "method_not_allowed"
  | "server_busy"
  | "request_canceled"
  | "insufficient_memory"
  | "model_load_failed"
  | "invalid_digest"
  | "digest_mismatch"
  | "blob_not_found"
  | "modelfile_invalid"
  | "not_implemented"
  | "body_too_large"
  | "internal";

/** Base error of the package: a code, a human message and an optional cause. */
export class LlmsrvError extends Error {
  readonly code: LlmsrvErrorCode;

  constructor(code: LlmsrvErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "LlmsrvError";
    this.code = code;
  }
}

/** Raised at start-up when environment variables are invalid; lists every problem. */
export class ConfigError extends LlmsrvError {
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super("config_invalid", `invalid configuration:\n  ${problems.join("\n  ")}`);
    this.problems = problems;
  }
}

/** Unknown model, in Ollama's wording. */
export function modelNotFound(name: string): LlmsrvError {
  return new LlmsrvError("model_not_found", `model '${name}' not found`);
}

/** Queue full, in Ollama's exact wording (two spaces before "maximum"). */
export function serverBusy(): LlmsrvError {
  return new LlmsrvError(
    "server_busy",
    "server busy, please try again.  maximum pending requests exceeded",
  );
}

/** The client went away while its request waited or ran. */
export function requestCanceled(): LlmsrvError {
  return new LlmsrvError("request_canceled", "request canceled");
}

/** A 400 with a message naming the problem. */
export function badRequest(message: string): LlmsrvError {
  return new LlmsrvError("bad_request", message);
}

/** Best-effort message of anything thrown. */
export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
