/**
 * Error types of the notes application. Every error carries a stable snake_case `code`;
 * `http/error-response.ts` is the one place that turns a code into an HTTP status.
 */

/** Codes of the errors this package throws. */
export type NotesErrorCode =
  | "invalid_email"
  | "invalid_password"
  | "password_confirmation_failed"
  | "email_already_registered"
  | "email_not_registered"
  | "password_mismatch"
  | "login_throttled"
  | "cross_site_request"
  | "method_not_allowed"
  | "not_found"
  | "config_invalid"
  | "storage_error";

/** Base error of the package: a code, a message meant for people, an optional cause. */
export class NotesError extends Error {
  readonly code: NotesErrorCode;

  constructor(code: NotesErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "NotesError";
    this.code = code;
  }
}

/** Which form a user-facing error belongs to; decides the error page's Back link. */
export type FormName = "signup" | "login";

/**
 * A rejected form submission. `message` is the exact string of the spec's error table
 * (e.g. `Invalid email !!!`); `detail` is an optional longer explanation shown under it.
 */
export class FormError extends NotesError {
  readonly form: FormName;
  readonly detail: string | undefined;

  constructor(code: NotesErrorCode, form: FormName, message: string, detail?: string) {
    super(code, message);
    this.name = "FormError";
    this.form = form;
    this.detail = detail;
  }
}

/** Too many failed logins for an email or a client address. */
export class ThrottledError extends NotesError {
  /** Seconds until the oldest counted failure leaves the window. */
  readonly retryAfterSeconds: number;

  constructor(retryAfterSeconds: number) {
    const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
    super(
      "login_throttled",
      `Too many failed logins, try again in ${minutes} minute${minutes === 1 ? "" : "s"} !!!`,
    );
    this.name = "ThrottledError";
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** A request with a method that its path does not accept. */
export class MethodNotAllowedError extends NotesError {
  /** Methods the path accepts, for the `Allow` header. */
  readonly allow: readonly string[];

  constructor(method: string, path: string, allow: readonly string[]) {
    super("method_not_allowed", `Method ${method} is not allowed on ${path} !!!`);
    this.name = "MethodNotAllowedError";
    this.allow = allow;
  }
}

/** One or more environment variables are invalid; the message lists all of them. */
export class ConfigError extends NotesError {
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super("config_invalid", `invalid configuration:\n  ${problems.join("\n  ")}`);
    this.name = "ConfigError";
    this.problems = problems;
  }
}
