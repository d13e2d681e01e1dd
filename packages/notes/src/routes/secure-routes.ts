/**
 * The protected area (behind the gate, so a session is present): `POST /secure` renders a page
 * of the user's notes; `POST /notes` adds one and `POST /notes/delete` removes one of the user's
 * own, each answering with a 307 back to /secure so a reload never repeats the change.
 * A note sent after the session ended is kept (`notes/draft-store.ts`) and the browser sent to
 * /login; the next notes page of the same user in that browser shows it in the form again.
 * `GET /secure` is 405 by the spec's method rule, except for a browser's navigation (a
 * bookmark, a new tab), which gets a page with a button that opens the notes.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { MethodNotAllowedError, NotesError } from "../errors.js";
import { formField } from "../http/form-fields.js";
import { rejectOtherMethods } from "../http/method-guard.js";
import { isNavigation } from "../http/navigation.js";
import { sendPage } from "../http/pages.js";
import { overTls } from "../http/request-session.js";
import { displayable, isValidText, normalizeLineBreaks } from "../http/text-rules.js";
import { openNotesPage } from "../views/open-notes-page.js";
import { type SecureNotice, securePage } from "../views/secure-page.js";
import type { RouteDeps } from "./route-deps.js";

/** Longest note: UTF-16 code units after CRLF → LF, exactly what the textarea's maxlength counts. */
export const MAX_NOTE_LENGTH = 10_000;
/** Notes per page of the list (a page of long notes stays around a megabyte at most). */
export const NOTES_PER_PAGE = 100;

/** Outcome messages the redirect may name (a fixed set: nothing from the URL is echoed). */
const OUTCOMES: ReadonlyMap<unknown, SecureNotice> = new Map([
  ["added", { kind: "success", text: "Note added." }],
  ["deleted", { kind: "success", text: "Note deleted." }],
]);

const PAGE_NUMBER = /^[1-9]\d{0,8}$/;

const KEPT_DRAFT: SecureNotice = {
  kind: "info",
  text: "Your session had ended when you sent this note, so it was kept: press Add note to save it.",
};

function ownerOf(request: FastifyRequest): string {
  const email = request.session?.logged_user_id;
  // The gate lets no anonymous request through; reaching here without one is a bug.
  if (!email) throw new NotesError("not_found", "Not signed in !!!");
  return email;
}

/** The page asked for (query `page`, or the form field on delete); 1 when absent or bad. */
function pageOf(value: unknown): number {
  return typeof value === "string" && PAGE_NUMBER.test(value) ? Number(value) : 1;
}

/** Why a submitted note body is refused, or undefined; `body` is already LF-normalised. */
function noteProblem(body: string | undefined): string | undefined {
  if (body === undefined || body.trim() === "" || body.length > MAX_NOTE_LENGTH) {
    return `Invalid note !!! A note has 1 to ${MAX_NOTE_LENGTH} characters.`;
  }
  if (!isValidText(body)) return "Invalid note !!! A note cannot contain NUL or invalid text.";
  return undefined;
}

/** Registers `/secure`, `/notes` and `/notes/delete`. */
export function registerSecureRoutes(app: FastifyInstance, deps: RouteDeps): void {
  async function render(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    options: { notice?: SecureNotice; page?: number; draft?: string } = {},
  ) {
    const email = ownerOf(request);
    const kept = deps.drafts.take(request.headers.cookie, email, overTls(request));
    if (kept) reply.header("set-cookie", kept.clearCookie);
    if (kept?.body !== undefined && options.draft === undefined) {
      options = { ...options, notice: KEPT_DRAFT, draft: kept.body };
    }
    const total = await deps.notes.countByOwner(email);
    const pageCount = Math.max(1, Math.ceil(total / NOTES_PER_PAGE));
    // A page past the end (notes deleted meanwhile) shows the last one.
    const page = Math.min(options.page ?? 1, pageCount);
    const notes = await deps.notes.listByOwner(email, NOTES_PER_PAGE, (page - 1) * NOTES_PER_PAGE);
    const view = { email, notes, page, pageCount, total, maxNoteLength: MAX_NOTE_LENGTH };
    return sendPage(reply, status, securePage({ ...options, ...view }));
  }

  app.post("/secure", async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    return render(request, reply, 200, {
      notice: OUTCOMES.get(query.notice),
      page: pageOf(query.page),
    });
  });
  app.get("/secure", async (request, reply) => {
    if (!isNavigation(request))
      throw new MethodNotAllowedError(request.method, "/secure", ["POST"]);
    return sendPage(reply, 200, openNotesPage(ownerOf(request)));
  });
  rejectOtherMethods(app, "/secure", ["POST"], ["GET", "HEAD"]);

  app.post("/notes", async (request, reply) => {
    const raw = formField(request.body, "body");
    const body = raw === undefined ? undefined : normalizeLineBreaks(raw);
    const problem = noteProblem(body);
    const endedFor = request.session ? undefined : request.endedSessionUser;
    if (endedFor) {
      // The gate let this through only to save the note: keep it, then log in again.
      if (!problem && deps.drafts.enabled) {
        reply.header("set-cookie", deps.drafts.keep(endedFor, body as string, overTls(request)));
        request.log.info({ email: endedFor }, "session ended: note kept for the next login");
      }
      return reply.header("cache-control", "no-store").redirect("/login", 302);
    }
    if (problem) {
      // The typed text comes back in the form, so nothing is lost.
      const draft = body === undefined ? undefined : displayable(body);
      return render(request, reply, 400, { notice: { kind: "danger", text: problem }, draft });
    }
    await deps.notes.add(ownerOf(request), body as string);
    return reply.redirect("/secure?notice=added", 307);
  });
  rejectOtherMethods(app, "/notes", ["POST"]);

  app.post("/notes/delete", async (request, reply) => {
    const id = formField(request.body, "id") ?? "";
    const page = pageOf(formField(request.body, "page"));
    if (!(await deps.notes.delete(ownerOf(request), id))) {
      const notice = { kind: "danger" as const, text: "Note not found !!!" };
      return render(request, reply, 404, { notice, page });
    }
    return reply.redirect(`/secure?notice=deleted&page=${page}`, 307);
  });
  rejectOtherMethods(app, "/notes/delete", ["POST"]);
}
