/**
 * The one place that turns errors into HTTP responses: `statusOf` maps each error code to a
 * status, and `handleError` renders the matching page (the spec's error page for form
 * errors, with its exact message and a Back link).
 */
import { setTimeout as delay } from "node:timers/promises";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { pathOf } from "../auth/gate.js";
import { AbortedJobError } from "../auth/hash-pool.js";
import {
  FormError,
  MethodNotAllowedError,
  NotesError,
  type NotesErrorCode,
  ThrottledError,
} from "../errors.js";
import { loginForm, signupForm } from "../views/auth-pages.js";
import { errorPage } from "../views/error-page.js";
import type { SafeHtml } from "../views/html.js";
import { isSameHost } from "./cross-site.js";
import { formField } from "./form-fields.js";
import { sendPage } from "./pages.js";
import { displayable } from "./text-rules.js";

const STATUS: Record<NotesErrorCode, number> = {
  invalid_email: 400,
  invalid_password: 400,
  password_confirmation_failed: 400,
  email_not_registered: 401,
  password_mismatch: 401,
  cross_site_request: 403,
  not_found: 404,
  method_not_allowed: 405,
  email_already_registered: 409,
  unsupported_encoding: 415,
  login_throttled: 429,
  signup_throttled: 429,
  config_invalid: 500,
  storage_error: 503,
};

/** Status of a request whose client left (nginx's convention); nobody receives it. */
const CLIENT_CLOSED = 499;

/** HTTP status of any error: ours by code, Fastify's (4xx) by its statusCode, else 500. */
export function statusOf(error: unknown): number {
  if (error instanceof AbortedJobError) return CLIENT_CLOSED;
  if (error instanceof NotesError) return STATUS[error.code];
  const status = (error as FastifyError | undefined)?.statusCode;
  return typeof status === "number" && status >= 400 && status < 500 ? status : 500;
}

/** Pages that hold the login form; the login error page goes Back to the one used. */
const LOGIN_FORM_PAGES = new Set(["/", "/login"]);

/** Back target of a login error: the same-origin form page in Referer, else `/`. */
function loginBackHref(request: FastifyRequest): string {
  const referer = request.headers.referer;
  if (!referer) return "/";
  if (!isSameHost(referer, request.host)) return "/";
  const path = new URL(referer).pathname;
  return LOGIN_FORM_PAGES.has(path) ? path : "/";
}

function headingOf(error: unknown): string {
  if (error instanceof FormError)
    return error.form === "signup" ? "Sign-up failed" : "Login failed";
  if (error instanceof ThrottledError)
    return error.form === "signup" ? "Sign-up failed" : "Login failed";
  return "Request failed";
}

function messageOf(error: unknown, status: number): string {
  if (error instanceof NotesError && status < 500) return error.message;
  if (status === 413) return "Request body too large !!!";
  if (status === 415) return "Unsupported form encoding !!!";
  if (status < 500) return "Bad request !!!";
  return "Something went wrong, please try again later !!!";
}

/**
 * The form of a refused sign-up or login, with the email field as typed (passwords are never
 * echoed); undefined for other errors.
 */
function retryFormOf(error: unknown, request: FastifyRequest): SafeHtml | undefined {
  if (!(error instanceof FormError || error instanceof ThrottledError)) return undefined;
  const email = displayable(formField(request.body, "email") ?? "");
  return error.form === "signup" ? signupForm(email) : loginForm(email);
}

function backHrefOf(error: unknown, request: FastifyRequest): string {
  if ((error instanceof FormError || error instanceof ThrottledError) && error.form === "signup") {
    return "/signup";
  }
  if (error instanceof FormError || error instanceof ThrottledError) return loginBackHref(request);
  return "/";
}

/** Fastify error handler: logs server faults, renders an error page for everything. */
export function handleError(
  error: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  const status = statusOf(error);
  if (status >= 500) request.log.error({ err: error, path: pathOf(request.url) }, "request failed");
  if (error instanceof MethodNotAllowedError) reply.header("allow", error.allow.join(", "));
  if (error instanceof ThrottledError) reply.header("retry-after", String(error.retryAfterSeconds));
  const page = errorPage({
    heading: headingOf(error),
    message: messageOf(error, status),
    detail: error instanceof FormError ? error.detail : undefined,
    backHref: backHrefOf(error, request),
    retryForm: retryFormOf(error, request),
  });
  return sendPage(reply, status, page);
}

/**
 * `handleError`, with throttled answers held back `throttleDelayMs` first. A client past a
 * throttle limit gets nothing it can use sooner anyway; holding its answer (a timer, no CPU)
 * means a flood from one client gets one answer per connection per delay instead of as many
 * as the event loop can render, which would slow every other visitor's pages.
 */
export function createErrorHandler(throttleDelayMs: number) {
  return async function handleAppError(
    error: unknown,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<FastifyReply> {
    if (error instanceof ThrottledError && throttleDelayMs > 0) await delay(throttleDelayMs);
    return handleError(error, request, reply);
  };
}
