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
  | "signup_throttled"
  | "cross_site_request"
  | "method_not_allowed"
  | "not_found"
  | "unsupported_encoding"
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

/** Too many failed logins for an email or address, or too many sign-ups from an address. */
export class ThrottledError extends NotesError {
  /** Seconds until the oldest counted attempt leaves the window. */
  readonly retryAfterSeconds: number;
  /** The form that was refused (decides the heading and the Back link). */
  readonly form: FormName;

  constructor(retryAfterSeconds: number, form: FormName = "login") {
    const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
    const what = form === "login" ? "failed logins" : "sign-ups";
    super(
      form === "login" ? "login_throttled" : "signup_throttled",
      `Too many ${what}, try again in ${minutes} minute${minutes === 1 ? "" : "s"} !!!`,
    );
    this.name = "ThrottledError";
    this.retryAfterSeconds = retryAfterSeconds;
    this.form = form;
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
