/**
 * The protected page (POST /secure): the signed-in user's notes, newest first, a form to add a
 * note, a delete button per note and the link to /logout.
 */
import type { Note } from "../notes/note-repo.js";
import { html, type SafeHtml } from "./html.js";
import { alert, layout } from "./layout.js";

/** An outcome message shown above the notes. */
export interface SecureNotice {
  readonly kind: "success" | "info" | "danger";
  readonly text: string;
}

/** What the protected page shows. */
export interface SecurePageOptions {
  readonly email: string;
  readonly notes: readonly Note[];
  readonly notice?: SecureNotice;
  /** Longest note body accepted, for the textarea's maxlength. */
  readonly maxNoteLength: number;
  /** Which page of the list this is (from 1) and how many there are. */
  readonly page: number;
  readonly pageCount: number;
  /** How many notes the user has in all. */
  readonly total: number;
  /** Text to put back into the new-note form (a refused note). */
  readonly draft?: string;
}

function formatTime(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

function noteItem(note: Note, page: number): SafeHtml {
  return html`<li class="list-group-item d-flex gap-3 align-items-start note-item" data-note-id="${note.id}">
<div class="flex-grow-1">
<p class="note-body mb-1">${note.body}</p>
<small class="text-body-secondary"><time datetime="${note.createdAt.toISOString()}">${formatTime(note.createdAt)}</time></small>
</div>
<form method="post" action="/notes/delete">
<input type="hidden" name="id" value="${note.id}">
<input type="hidden" name="page" value="${page}">
<button type="submit" class="btn btn-sm btn-outline-danger">Delete</button>
</form>
</li>`;
}

function noteList(notes: readonly Note[], page: number): SafeHtml {
  if (notes.length === 0) {
    return html`<p class="text-body-secondary" id="no-notes">No notes yet. Write your first one above.</p>`;
  }
  return html`<ul class="list-group shadow-sm" id="notes">${notes.map((n) => noteItem(n, page))}</ul>`;
}

/** A button that posts to page `page` of the list (the list is reached by POST only). */
function pageButton(page: number, label: string, rel: string): SafeHtml {
  return html`<form method="post" action="/secure?page=${page}" class="d-inline">
<button type="submit" class="btn btn-outline-primary btn-sm" rel="${rel}" data-page="${page}">${label}</button>
</form>`;
}

/** Newer/older buttons and "page x of y", shown when the notes fill more than one page. */
function pagination(options: SecurePageOptions): SafeHtml | null {
  if (options.pageCount <= 1) return null;
  const { page, pageCount } = options;
  return html`<nav class="d-flex align-items-center gap-2 my-3" id="pagination" aria-label="Pages of notes">
${page > 1 ? pageButton(1, "« Newest", "first") : null}
${page > 1 ? pageButton(page - 1, "‹ Newer", "prev") : null}
<span class="text-body-secondary" id="page-status">Page ${page} of ${pageCount} (${options.total} notes)</span>
${page < pageCount ? pageButton(page + 1, "Older ›", "next") : null}
${page < pageCount ? pageButton(pageCount, "Oldest »", "last") : null}
</nav>`;
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
<textarea class="form-control" id="note-body" name="body" rows="3" maxlength="${options.maxNoteLength}" required>
${options.draft ?? ""}</textarea>
<div class="form-text">At most ${options.maxNoteLength} characters; a line break counts as one.</div>
<div><button type="submit" class="btn btn-primary">Add note</button></div>
</form>
${noteList(options.notes, options.page)}
${pagination(options)}
</div>
</div>`;
  return layout({ title: "Your notes", body, nav, signedIn: true });
}
