/**
 * `GET /` (the welcome page with the login form) and `GET /logout` (ends the user's sessions,
 * removes the cookie and shows the welcome page again). `HEAD /logout` answers the same
 * headers but ends nothing: HEAD is a safe method, and link checkers and prefetchers send it.
 */
import type { FastifyInstance } from "fastify";
import { rejectOtherMethods } from "../http/method-guard.js";
import { sendPage } from "../http/pages.js";
import { endSession } from "../http/request-session.js";
import { welcomePage } from "../views/auth-pages.js";
import type { RouteDeps } from "./route-deps.js";

/** Registers `/` and `/logout`. */
export function registerWelcomeRoutes(app: FastifyInstance, deps: RouteDeps): void {
  // The anonymous welcome page never changes: render it once.
  const anonymousWelcome = welcomePage();

  app.get("/", async (request, reply) => {
    const email = request.session?.logged_user_id;
    return sendPage(reply, 200, email ? welcomePage({ signedInAs: email }) : anonymousWelcome);
  });
  rejectOtherMethods(app, "/", ["GET"]);

  app.get("/logout", async (request, reply) => {
    // Fastify runs this handler for HEAD too (its automatic HEAD route).
    if (request.method === "HEAD") return sendPage(reply, 200, anonymousWelcome);
    await endSession(deps.sessions, deps.sessionVersions, request, reply);
    request.log.info({ email: request.session?.logged_user_id }, "logout");
    return sendPage(
      reply,
      200,
      welcomePage({ notice: { kind: "info", text: "You have logged out." } }),
    );
  });
  rejectOtherMethods(app, "/logout", ["GET"]);
}
