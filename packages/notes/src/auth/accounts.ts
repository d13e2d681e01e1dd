/**
 * Sign-up and login: the checks of the spec's error table, in its order, with its exact
 * messages. HTTP-free, so routes only translate forms in and pages out.
 */
import { MAX_EMAIL_LENGTH } from "../db/schema.js";
import { FormError, ThrottledError } from "../errors.js";
import { codePointLength, isValidLine, isValidText } from "../http/text-rules.js";
import type { UserRepo } from "../users/user-repo.js";
import { canonicalEmail, emailProblem } from "./email-address.js";
import { addressKey, emailKey, type LoginThrottle } from "./login-throttle.js";
import {
  isPasswordTooLong,
  MAX_PASSWORD_BYTES,
  MIN_PASSWORD_LENGTH,
  type PasswordHasher,
} from "./password.js";

/** Exact messages of the spec's error table (and the duplicate-email choice). */
export const MESSAGES = Object.freeze({
  invalidEmail: "Invalid email !!!",
  invalidPassword: "Invalid password !!!",
  confirmationFailed: "Password confirmation failed !!!",
  alreadyRegistered: "Email already registered !!!",
});

/** A submitted sign-up form; absent fields are undefined. */
export interface SignupForm {
  readonly email: string | undefined;
  readonly password1: string | undefined;
  readonly password2: string | undefined;
  /** Where the form came from: sign-ups are counted per client address. */
  readonly clientAddress: string;
  /** Aborts when the client has gone: a hash still queued for it is dropped. */
  readonly signal?: AbortSignal;
}

/** A submitted login form plus the client address it came from. */
export interface LoginAttempt {
  readonly email: string | undefined;
  readonly password: string | undefined;
  readonly clientAddress: string;
  /** Aborts when the client has gone: a hash still queued for it is dropped. */
  readonly signal?: AbortSignal;
}

/** Registers and authenticates users. */
export interface Accounts {
  /** Stores a new user; returns the stored email. Throws `FormError` on any failed check. */
  signup(form: SignupForm): Promise<string>;
  /** Checks credentials; returns the email to put into the session. */
  login(attempt: LoginAttempt): Promise<string>;
}

/** Dependencies of the account logic. */
export interface AccountsDeps {
  readonly users: UserRepo;
  readonly hasher: PasswordHasher;
  readonly throttle: LoginThrottle;
  /** Counts sign-ups per client address (the same sliding window as the login throttle). */
  readonly signupThrottle: LoginThrottle;
}

const isBlank = (value: string | undefined): boolean => value === undefined || value.trim() === "";

function checkSignupEmail(raw: string | undefined): string {
  if (raw === undefined || isBlank(raw)) throw signupError("invalid_email", MESSAGES.invalidEmail);
  const problem = emailProblem(raw);
  if (problem) throw signupError("invalid_email", MESSAGES.invalidEmail, problem);
  return canonicalEmail(raw);
}

/** The sign-up password checks, in order: blank, invalid text, too short, too long. */
function checkSignupPassword(password: string | undefined): string {
  if (password === undefined || isBlank(password)) {
    throw signupError("invalid_password", MESSAGES.invalidPassword);
  }
  const invalid = (detail: string) =>
    signupError("invalid_password", MESSAGES.invalidPassword, detail);
  if (!isValidText(password)) throw invalid("A password cannot contain NUL or invalid text.");
  if (codePointLength(password) < MIN_PASSWORD_LENGTH) {
    throw invalid(`A password has at least ${MIN_PASSWORD_LENGTH} characters.`);
  }
  if (isPasswordTooLong(password)) {
    throw invalid(`A password has at most ${MAX_PASSWORD_BYTES} bytes.`);
  }
  return password;
}

function signupError(code: FormError["code"], message: string, detail?: string): FormError {
  return new FormError(code, "signup", message, detail);
}

function loginError(code: FormError["code"], message: string): FormError {
  return new FormError(code, "login", message);
}

/** Creates the account logic. */
export function createAccounts(deps: AccountsDeps): Accounts {
  return {
    async signup(form) {
      const email = checkSignupEmail(form.email);
      const password = checkSignupPassword(form.password1);
      if (password !== form.password2) {
        throw signupError("password_confirmation_failed", MESSAGES.confirmationFailed);
      }
      return registerUser(deps, email, password, form);
    },

    async login(attempt) {
      if (isBlank(attempt.email) || !isValidLine(attempt.email ?? "")) {
        throw loginError("invalid_email", MESSAGES.invalidEmail);
      }
      if (attempt.password === undefined || isBlank(attempt.password)) {
        throw loginError("invalid_password", MESSAGES.invalidPassword);
      }
      if (!isValidText(attempt.password)) {
        throw loginError("invalid_password", MESSAGES.invalidPassword);
      }
      const typed = (attempt.email ?? "").trim();
      const keys = [emailKey(canonicalEmail(typed)), addressKey(attempt.clientAddress)];
      // The place is taken before the lookup and the hash, so simultaneous guesses cannot all
      // pass the check while the first ones are still being verified.
      const reservation = deps.throttle.reserve(keys);
      if (!reservation.granted) throw new ThrottledError(reservation.retryAfter);

      let email: string;
      try {
        email = await checkCredentials(deps, typed, attempt.password, attempt.signal);
      } catch (error) {
        // A wrong email or password keeps its place as a failure; a fault of ours does not.
        if (!(error instanceof FormError)) reservation.release();
        throw error;
      }
      reservation.release();
      deps.throttle.reset(keys[0] as string);
      return email;
    },
  };
}

/**
 * The stored email of the account `typed` names, or the spec's login error when there is none
 * or `password` is not its password. The canonical form is looked up first; an address stored
 * as typed before emails were canonical (mixed case) is still found by its exact spelling.
 */
async function checkCredentials(
  deps: AccountsDeps,
  typed: string,
  password: string,
  signal: AbortSignal | undefined,
): Promise<string> {
  for (const email of new Set([canonicalEmail(typed), typed])) {
    if (codePointLength(email) > MAX_EMAIL_LENGTH) continue;
    const hash = await deps.users.findPasswordHash(email);
    if (hash === undefined) continue;
    if (!(await deps.hasher.verify(password, hash, signal))) {
      throw loginError("password_mismatch", MESSAGES.invalidPassword);
    }
    return email;
  }
  throw loginError("email_not_registered", MESSAGES.invalidEmail);
}

/**
 * Stores a checked sign-up. Every attempt that gets this far counts against the client address,
 * success or not (only a fault of ours gives the place back), and takes its place before the
 * database and the hash, like a login. A registered email is refused before the costly hash;
 * the primary key still decides between two sign-ups racing past that check.
 */
async function registerUser(
  deps: AccountsDeps,
  email: string,
  password: string,
  form: SignupForm,
): Promise<string> {
  const reservation = deps.signupThrottle.reserve([addressKey(form.clientAddress)]);
  if (!reservation.granted) throw new ThrottledError(reservation.retryAfter, "signup");
  let stored: boolean;
  try {
    if (await deps.users.exists(email)) stored = false;
    else stored = await deps.users.create(email, await deps.hasher.hash(password, form.signal));
  } catch (error) {
    reservation.release();
    throw error;
  }
  if (!stored) throw signupError("email_already_registered", MESSAGES.alreadyRegistered);
  return email;
}
