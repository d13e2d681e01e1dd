/**
 * Sign-up and login: the checks of the spec's error table, in its order, with its exact
 * messages. HTTP-free, so routes only translate forms in and pages out.
 */
import { MAX_EMAIL_LENGTH } from "../db/schema.js";
import { FormError, ThrottledError } from "../errors.js";
import type { UserRepo } from "../users/user-repo.js";
import { addressKey, emailKey, type LoginThrottle } from "./login-throttle.js";
import { isPasswordTooLong, MAX_PASSWORD_BYTES, type PasswordHasher } from "./password.js";

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
}

/** A submitted login form plus the client address it came from. */
export interface LoginAttempt {
  readonly email: string | undefined;
  readonly password: string | undefined;
  readonly clientAddress: string;
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
}

const isBlank = (value: string | undefined): boolean => value === undefined || value.trim() === "";
/** Something@something with no spaces: enough to catch typos, no attempt at RFC 5322. */
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+$/;

function checkSignupEmail(raw: string | undefined): string {
  if (raw === undefined || isBlank(raw)) throw signupError("invalid_email", MESSAGES.invalidEmail);
  const email = raw.trim();
  if (email.length > MAX_EMAIL_LENGTH) {
    throw signupError(
      "invalid_email",
      MESSAGES.invalidEmail,
      `An email has at most ${MAX_EMAIL_LENGTH} characters.`,
    );
  }
  if (!EMAIL_SHAPE.test(email)) {
    throw signupError(
      "invalid_email",
      MESSAGES.invalidEmail,
      "An email looks like name@example.com.",
    );
  }
  return email;
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
      const password = form.password1;
      if (password === undefined || isBlank(password)) {
        throw signupError("invalid_password", MESSAGES.invalidPassword);
      }
      if (isPasswordTooLong(password)) {
        const detail = `A password has at most ${MAX_PASSWORD_BYTES} bytes.`;
        throw signupError("invalid_password", MESSAGES.invalidPassword, detail);
      }
      if (password !== form.password2) {
        throw signupError("password_confirmation_failed", MESSAGES.confirmationFailed);
      }
      const stored = await deps.users.create(email, await deps.hasher.hash(password));
      if (!stored) {
        throw signupError("email_already_registered", MESSAGES.alreadyRegistered);
      }
      return email;
    },

    async login(attempt) {
      if (isBlank(attempt.email)) throw loginError("invalid_email", MESSAGES.invalidEmail);
      if (attempt.password === undefined || isBlank(attempt.password)) {
        throw loginError("invalid_password", MESSAGES.invalidPassword);
      }
      const email = (attempt.email ?? "").trim();
      const keys = [emailKey(email), addressKey(attempt.clientAddress)];
      // The place is taken before the lookup and the hash, so simultaneous guesses cannot all
      // pass the check while the first ones are still being verified.
      const reservation = deps.throttle.reserve(keys);
      if (!reservation.granted) throw new ThrottledError(reservation.retryAfter);

      try {
        await checkCredentials(deps, email, attempt.password);
      } catch (error) {
        // A wrong email or password keeps its place as a failure; a fault of ours does not.
        if (!(error instanceof FormError)) reservation.release();
        throw error;
      }
      reservation.release();
      deps.throttle.reset(emailKey(email));
      return email;
    },
  };
}

/** Throws the spec's login error unless `password` is the one stored for `email`. */
async function checkCredentials(
  deps: AccountsDeps,
  email: string,
  password: string,
): Promise<void> {
  const hash =
    email.length <= MAX_EMAIL_LENGTH ? await deps.users.findPasswordHash(email) : undefined;
  if (hash === undefined) throw loginError("email_not_registered", MESSAGES.invalidEmail);
  if (!(await deps.hasher.verify(password, hash))) {
    throw loginError("password_mismatch", MESSAGES.invalidPassword);
  }
}
