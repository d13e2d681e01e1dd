/**
 * The errors a request can end with before or around evaluation. Each carries OPA's API
 * code and a kind; `error-response.ts` alone decides the HTTP status of each kind.
 */
import { MAX_YAML_DEPTH } from "../builtins/yaml-codec.js";
import type { RegoError } from "../errors.js";

/** What went wrong, independent of HTTP. */
export type ApiErrorKind =
  | "bad_request"
  | "too_large"
  | "not_found"
  | "missing_resource"
  | "method_not_allowed";

/** OPA's API error codes used by this server. */
export type ApiErrorCode =
  | "invalid_parameter"
  | "resource_not_found"
  | "undefined_document"
  | "internal_error";

export class ApiError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    readonly code: ApiErrorCode,
    message: string,
    readonly errors: readonly RegoError[] = [],
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** A malformed request: 400 invalid_parameter. */
export function badRequest(message: string, errors: readonly RegoError[] = []): ApiError {
  return new ApiError("bad_request", "invalid_parameter", message, errors);
}

/** A request body over the limit: 413. */
export function bodyTooLarge(message = "request body too large"): ApiError {
  return new ApiError("too_large", "invalid_parameter", message);
}

/** A known route asked with a method it does not serve: 405, empty body as in OPA. */
export function methodNotAllowed(): ApiError {
  return new ApiError("method_not_allowed", "invalid_parameter", "method not allowed");
}

/** No such route: 404. */
export function routeNotFound(): ApiError {
  return new ApiError("not_found", "resource_not_found", "404 page not found");
}

/** A policy id or document that does not exist: 404 with OPA's JSON body. */
export function resourceNotFound(message: string): ApiError {
  return new ApiError("missing_resource", "resource_not_found", message);
}

/** The v0 webhook's undefined decision: 404 `undefined_document`. */
export function undefinedDocument(message: string): ApiError {
  return new ApiError("missing_resource", "undefined_document", message);
}

/** An input document nested deeper than REGO_MAX_INPUT_DEPTH: 400 invalid_parameter. */
export function inputTooDeep(maxDepth: number): ApiError {
  return badRequest(
    `input document nesting exceeds the maximum depth of ${maxDepth} (REGO_MAX_INPUT_DEPTH)`,
  );
}

/** A YAML input nested deeper than the YAML reader's own bound: 400 invalid_parameter. */
export function yamlInputTooDeep(): ApiError {
  return badRequest(`YAML input document nesting exceeds the maximum depth of ${MAX_YAML_DEPTH}`);
}
