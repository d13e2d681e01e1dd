/**
 * The protected page (POST /secure): the signed-in user's notes, newest first, a form to add a
 * note, a delete button per note and the link to /logout.
 */
import type { Note } from "../notes/note-repo.js";
import { html, type SafeHtml } from "./html.js";
import { alert, layout } from "./layout.js";

/** An outcome message shown above the notes. */
export interface SecureNotice {
  readonly kind: "success" | "danger";
  readonly text: string;
}

/** What the protected page shows. */
export interface SecurePageOptions {
  readonly email: string;
  readonly notes: readonly Note[];
  readonly notice?: SecureNotice;
  /** Longest note body accepted, for the textarea's maxlength. */
  readonly maxNoteLength: number;
}

function formatTime(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

function noteItem(note: Note): SafeHtml {
  return html`<li class="list-group-item d-flex gap-3 align-items-start note-item" data-note-id="${note.id}">
<div class="flex-grow-1">
<p class="note-body mb-1">${note.body}</p>
<small class="text-body-secondary"><time datetime="${note.createdAt.toISOString()}">${formatTime(note.createdAt)}</time></small>
</div>
<form method="post" action="/notes/delete">
<input type="hidden" name="id" value="${note.id}">
<button type="submit" class="btn btn-sm btn-outline-danger">Delete</button>
</form>
</li>`;
}

function noteList(notes: readonly Note[]): SafeHtml {
  if (notes.length === 0) {
    return html`<p class="text-body-secondary" id="no-notes">No notes yet. Write your first one above.</p>`;
  }
  return html`<ul class="list-group shadow-sm" id="notes">${notes.map(noteItem)}</ul>`;
}

/** Renders the protected page. */
export function securePage(options: SecurePageOptions): SafeHtml {
  const nav = html`<div class="d-flex align-items-center gap-3">
<span class="navbar-text text-white" id="signed-in-as">${options.email}</span>
<a class="btn btn-outline-light btn-sm" href="/logout" id="logout-link">Log out</a>
</div>`;
  const notice = options.notice ? alert(options.notice.kind, options.notice.text) : null;
  const body = html`<div class="row justify-content-center">
<div class="col-lg-8">
<div class="d-flex align-items-center gap-3 mb-3">
<img src="/static/notes-logo.svg" alt="" width="40" height="40" class="notes-logo">
<h1 class="h3 mb-0">Your notes</h1>
</div>
${notice}
<form method="post" action="/notes" class="card card-body shadow-sm mb-4 vstack gap-2" id="note-form">
<label for="note-body" class="form-label mb-0">New note</label>
<textarea class="form-control" id="note-body" name="body" rows="3" maxlength="${options.maxNoteLength}" required></textarea>
<div><button type="submit" class="btn btn-primary">Add note</button></div>
</form>
${noteList(options.notes)}
</div>
</div>`;
  return layout({ title: "Your notes", body, nav, signedIn: true });
}
