/**
 * What a signed-in browser gets for `GET /secure` (a bookmark, a new tab): the notes page is
 * reached by POST only (the spec's method rule), so this page offers the button that posts.
 */
import { html, type SafeHtml } from "./html.js";
import { layout } from "./layout.js";

/** Renders the "open your notes" page for `email`. */
export function openNotesPage(email: string): SafeHtml {
  const body = html`<div class="row justify-content-center">
<div class="col-md-6 col-lg-5">
<div class="card shadow-sm">
<div class="card-body p-4">
<h1 class="h3 mb-3">Your notes</h1>
<p>Signed in as <strong id="signed-in-as">${email}</strong>.</p>
<form method="post" action="/secure" id="open-notes-form">
<button type="submit" class="btn btn-primary" id="open-notes">Open your notes</button>
</form>
</div>
</div>
</div>
</div>`;
  return layout({ title: "Your notes", body, signedIn: true });
}
