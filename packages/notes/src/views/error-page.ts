/**
 * Error page of the sign-up and login forms: the exact message of the spec's error table, an
 * optional explanation, and a Back link. The link is a real `href` to the form the visitor
 * came from, so it works with JavaScript off and needs no inline script (the CSP forbids it).
 */
import { html, type SafeHtml } from "./html.js";
import { layout } from "./layout.js";

/** What an error page shows. */
export interface ErrorPageOptions {
  /** Heading, e.g. "Sign-up failed". */
  readonly heading: string;
  /** The exact message, e.g. `Invalid email !!!`. */
  readonly message: string;
  /** Optional explanation under the message. */
  readonly detail?: string;
  /** Target of the Back link: the page that holds the form. */
  readonly backHref: string;
  /** The form again, with what was typed in the email field, to try again here. */
  readonly retryForm?: SafeHtml;
}

/** Renders an error page. */
export function errorPage(options: ErrorPageOptions): SafeHtml {
  const body = html`<div class="row justify-content-center">
<div class="col-md-6 col-lg-5">
<div class="card shadow-sm border-danger">
<div class="card-body p-4">
<h1 class="h3 mb-3">${options.heading}</h1>
<div class="alert alert-danger" role="alert" id="error-message">${options.message}</div>
${options.detail ? html`<p class="text-body-secondary" id="error-detail">${options.detail}</p>` : null}
<a class="btn btn-secondary" href="${options.backHref}" id="back-link">Back</a>
${options.retryForm ? html`<hr class="my-4"><h2 class="h5 mb-3">Try again</h2>${options.retryForm}` : null}
</div>
</div>
</div>
</div>`;
  return layout({ title: options.heading, body });
}
