/**
 * `GET /login` (the login form, where the gate sends anonymous visitors) and `POST /login`
 * (checks credentials, starts a new session and redirects to /secure with 307, so the browser
 * repeats the POST there).
 */
import type { FastifyInstance } from "fastify";
import { ThrottledError } from "../errors.js";
import { abandonSignal } from "../http/abandoned-request.js";
import { formField } from "../http/form-fields.js";
import { rejectOtherMethods } from "../http/method-guard.js";
import { sendPage } from "../http/pages.js";
import { startSession } from "../http/request-session.js";
import { loginPage } from "../views/auth-pages.js";
import type { RouteDeps } from "./route-deps.js";

/** Registers `/login`. */
export function registerLoginRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const form = loginPage();
  const formWithDraft = loginPage({ draftKept: true });

  app.get("/login", async (request, reply) =>
    sendPage(reply, 200, deps.drafts.waiting(request.headers.cookie) ? formWithDraft : form),
  );

  app.post("/login", async (request, reply) => {
    const email = formField(request.body, "email");
    let user: string;
    try {
      user = await deps.accounts.login({
        email,
        password: formField(request.body, "password"),
        clientAddress: request.ip,
        signal: abandonSignal(reply),
      });
    } catch (error) {
      const throttled = error instanceof ThrottledError;
      request.log.info({ email, ip: request.ip, throttled }, "login refused");
      throw error;
    }
    await startSession(deps.sessions, deps.sessionVersions, request, reply, user);
    request.log.info({ email: user }, "login");
    return reply.header("cache-control", "no-store").redirect("/secure", 307);
  });
  rejectOtherMethods(app, "/login", ["GET", "POST"]);
}
