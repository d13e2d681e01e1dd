/**
 * The protected area (behind the gate, so a session is present): `POST /secure` renders the
 * user's notes; `POST /notes` adds one and `POST /notes/delete` removes one of the user's own,
 * each answering with a 307 back to /secure so a reload never repeats the change.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { NotesError } from "../errors.js";
import { formField } from "../http/form-fields.js";
import { rejectOtherMethods } from "../http/method-guard.js";
import { sendPage } from "../http/pages.js";
import { type SecureNotice, securePage } from "../views/secure-page.js";
import type { RouteDeps } from "./route-deps.js";

/** Longest note, in characters. */
export const MAX_NOTE_LENGTH = 10_000;
/** Most notes listed on the page. */
export const MAX_NOTES_LISTED = 500;

/** Outcome messages the redirect may name (a fixed set: nothing from the URL is echoed). */
const OUTCOMES: ReadonlyMap<unknown, SecureNotice> = new Map([
  ["added", { kind: "success", text: "Note added." }],
  ["deleted", { kind: "success", text: "Note deleted." }],
]);

function ownerOf(request: FastifyRequest): string {
  const email = request.session?.logged_user_id;
  // The gate lets no anonymous request through; reaching here without one is a bug.
  if (!email) throw new NotesError("not_found", "Not signed in !!!");
  return email;
}

/** Registers `/secure`, `/notes` and `/notes/delete`. */
export function registerSecureRoutes(app: FastifyInstance, deps: RouteDeps): void {
  async function render(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    notice?: SecureNotice,
  ) {
    const email = ownerOf(request);
    const notes = await deps.notes.listByOwner(email, MAX_NOTES_LISTED);
    return sendPage(
      reply,
      status,
      securePage({ email, notes, notice, maxNoteLength: MAX_NOTE_LENGTH }),
    );
  }

  app.post("/secure", async (request, reply) => {
    const outcome = (request.query as Record<string, unknown>).notice;
    return render(request, reply, 200, OUTCOMES.get(outcome));
  });
  rejectOtherMethods(app, "/secure", ["POST"]);

  app.post("/notes", async (request, reply) => {
    const body = formField(request.body, "body");
    if (body === undefined || body.trim() === "" || body.length > MAX_NOTE_LENGTH) {
      const text = `Invalid note !!! A note has 1 to ${MAX_NOTE_LENGTH} characters.`;
      return render(request, reply, 400, { kind: "danger", text });
    }
    await deps.notes.add(ownerOf(request), body);
    return reply.redirect("/secure?notice=added", 307);
  });
  rejectOtherMethods(app, "/notes", ["POST"]);

  app.post("/notes/delete", async (request, reply) => {
    const id = formField(request.body, "id") ?? "";
    if (!(await deps.notes.delete(ownerOf(request), id))) {
      return render(request, reply, 404, { kind: "danger", text: "Note not found !!!" });
    }
    return reply.redirect("/secure?notice=deleted", 307);
  });
  rejectOtherMethods(app, "/notes/delete", ["POST"]);
}
