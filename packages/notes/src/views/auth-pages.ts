/**
 * Pages of anonymous visitors: the welcome page (login form and sign-up link), the login page
 * that the gate redirects to, and the sign-up form.
 */

import { MIN_PASSWORD_LENGTH } from "../auth/password.js";
import { html, type SafeHtml } from "./html.js";
import { alert, layout } from "./layout.js";

/** An optional message shown above a form. */
export interface Notice {
  readonly kind: "success" | "info";
  readonly text: string;
}

/** The login form; `email` pre-fills the email field (an error page keeps what was typed). */
export function loginForm(email = ""): SafeHtml {
  return html`<form method="post" action="/login" class="vstack gap-3" id="login-form">
<div>
<label for="login-email" class="form-label">Email</label>
<input type="email" class="form-control" id="login-email" name="email" maxlength="64" autocomplete="username" value="${email}" required>
</div>
<div>
<label for="login-password" class="form-label">Password</label>
<input type="password" class="form-control" id="login-password" name="password" autocomplete="current-password" required>
</div>
<button type="submit" class="btn btn-primary">Log in</button>
</form>`;
}

function card(title: string, notice: Notice | undefined, content: SafeHtml): SafeHtml {
  return html`<div class="row justify-content-center">
<div class="col-md-6 col-lg-5">
<div class="card shadow-sm">
<div class="card-body p-4">
<h1 class="h3 mb-3">${title}</h1>
${notice ? alert(notice.kind, notice.text) : null}
${content}
</div>
</div>
</div>
</div>`;
}

/** What the welcome page shows besides the login form. */
export interface WelcomeOptions {
  readonly notice?: Notice;
  /** Email of a signed-in visitor: offers a way back to their notes. */
  readonly signedInAs?: string;
}

function signedInPanel(email: string): SafeHtml {
  return html`<div class="alert alert-secondary d-flex align-items-center justify-content-between gap-2" id="signed-in-panel">
<span>Signed in as <strong>${email}</strong></span>
<form method="post" action="/secure"><button type="submit" class="btn btn-sm btn-primary">Open your notes</button></form>
</div>`;
}

/** Welcome page: a login form (POST /login) and a link to /signup. */
export function welcomePage(options: WelcomeOptions = {}): SafeHtml {
  const content = html`${options.signedInAs ? signedInPanel(options.signedInAs) : null}
<p class="text-body-secondary">Keep short notes, private to your account.</p>
${loginForm()}
<p class="mt-3 mb-0">No account yet? <a href="/signup" id="signup-link">Sign up</a></p>`;
  return layout({ title: "Welcome", body: card("Welcome to Notes", options.notice, content) });
}

/**
 * Login page (GET /login): where the gate sends visitors without a session. `draftKept`: a
 * note sent after the session ended is waiting for this login.
 */
export function loginPage(options: { draftKept?: boolean } = {}): SafeHtml {
  const notice: Notice = {
    kind: "info",
    text: options.draftKept
      ? "Your session has ended. Log in again: the note you were writing is kept and will be back in the form."
      : "Please log in to continue.",
  };
  const content = html`${loginForm()}
<p class="mt-3 mb-0">No account yet? <a href="/signup" id="signup-link">Sign up</a></p>`;
  return layout({ title: "Log in", body: card("Log in", notice, content) });
}

/** The sign-up form; `email` pre-fills the email field (an error page keeps what was typed). */
export function signupForm(email = ""): SafeHtml {
  return html`<form method="post" action="/signup" class="vstack gap-3" id="signup-form">
<div>
<label for="signup-email" class="form-label">Email</label>
<input type="email" class="form-control" id="signup-email" name="email" maxlength="64" autocomplete="username" value="${email}" required>
<div class="form-text">At most 64 characters.</div>
</div>
<div>
<label for="signup-password1" class="form-label">Password</label>
<input type="password" class="form-control" id="signup-password1" name="password1" minlength="${MIN_PASSWORD_LENGTH}" autocomplete="new-password" aria-describedby="password-hint" required>
<div class="form-text" id="password-hint">At least ${MIN_PASSWORD_LENGTH} characters.</div>
</div>
<div>
<label for="signup-password2" class="form-label">Confirm password</label>
<input type="password" class="form-control" id="signup-password2" name="password2" minlength="${MIN_PASSWORD_LENGTH}" autocomplete="new-password" required>
</div>
<button type="submit" class="btn btn-primary">Sign up</button>
</form>`;
}

/** Sign-up form page (GET /signup): email, password1, password2, POST /signup. */
export function signupPage(): SafeHtml {
  const content = html`${signupForm()}
<p class="mt-3 mb-0">Already registered? <a href="/" id="login-link">Log in</a></p>`;
  return layout({ title: "Sign up", body: card("Create an account", undefined, content) });
}
